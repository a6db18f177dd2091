from decimal import ROUND_HALF_UP, Decimal


def weekly_pay(hours, rate):
    rate = Decimal(rate)
    if rate < 0:
        raise ValueError("negative rate")
    worked = Decimal(0)
    total = Decimal(0)
    for day in hours:
        h = Decimal(day)
        if h < 0:
            raise ValueError("negative hours")
        regular = max(min(h, 40 - worked), Decimal(0))
        overtime = h - regular
        worked += h
        day_pay = regular * rate + overtime * rate * Decimal("1.5")
        total += day_pay.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{total:.2f}"
