from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")


def _amount(text):
    try:
        value = Decimal(text)
    except (InvalidOperation, TypeError):
        raise ValueError(f"bad amount {text!r}") from None
    if not value.is_finite() or value < 0 or value != value.quantize(CENT):
        raise ValueError(f"bad amount {text!r}")
    return value


def weekly_pay(hours, rate):
    base = _amount(rate)
    overtime_rate = (base * Decimal("1.5")).quantize(CENT, ROUND_HALF_UP)  # a payslip shows cents
    total = sum((_amount(h) for h in hours), Decimal(0))
    regular = min(total, Decimal(40))
    pay = regular * base + (total - regular) * overtime_rate
    return str(pay.quantize(CENT, ROUND_HALF_UP))
