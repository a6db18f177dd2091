"""Weekly gross pay with overtime, computed exactly."""

from decimal import Decimal, InvalidOperation, ROUND_HALF_UP

REGULAR_HOURS = Decimal(40)
OVERTIME_FACTOR = Decimal("1.5")


def _parse(value) -> Decimal:
    try:
        amount = Decimal(value)
    except (InvalidOperation, TypeError):
        raise ValueError(f"not a number: {value!r}") from None
    if amount < 0:
        raise ValueError(f"negative amount: {value!r}")
    if amount.as_tuple().exponent < -2:
        raise ValueError(f"more than two decimals: {value!r}")
    return amount


def weekly_pay(hours, rate) -> str:
    rate_d = _parse(rate)
    total_hours = sum((_parse(h) for h in hours), Decimal(0))
    regular = min(total_hours, REGULAR_HOURS)
    overtime = max(total_hours - REGULAR_HOURS, Decimal(0))
    pay = regular * rate_d + overtime * rate_d * OVERTIME_FACTOR
    return f"{pay.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):f}"
