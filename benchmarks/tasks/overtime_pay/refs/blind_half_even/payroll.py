"""Weekly gross pay with overtime, computed exactly."""

import re
from decimal import Decimal

_AMOUNT = re.compile(r"\d+(\.\d{1,2})?")
REGULAR_HOURS = Decimal(40)
OVERTIME_FACTOR = Decimal("1.5")
CENT = Decimal("0.01")


def _parse(value) -> Decimal:
    if not isinstance(value, str) or not _AMOUNT.fullmatch(value):
        raise ValueError(f"not an amount with at most two decimals: {value!r}")
    return Decimal(value)


def weekly_pay(hours, rate) -> str:
    rate_d = _parse(rate)
    total_hours = sum((_parse(h) for h in hours), Decimal(0))
    regular = min(total_hours, REGULAR_HOURS)
    overtime = max(total_hours - REGULAR_HOURS, Decimal(0))
    pay = regular * rate_d + overtime * rate_d * OVERTIME_FACTOR
    return f"{pay.quantize(CENT):f}"
