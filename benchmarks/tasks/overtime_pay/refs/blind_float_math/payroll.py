"""Weekly gross pay with overtime."""

import re
from decimal import Decimal, ROUND_HALF_UP

_AMOUNT = re.compile(r"\d+(\.\d{1,2})?")


def _parse(value) -> float:
    if not isinstance(value, str) or not _AMOUNT.fullmatch(value):
        raise ValueError(f"not an amount with at most two decimals: {value!r}")
    return float(value)


def weekly_pay(hours, rate) -> str:
    rate_f = _parse(rate)
    total_hours = sum(_parse(h) for h in hours)
    regular = min(total_hours, 40.0)
    overtime = max(total_hours - 40.0, 0.0)
    pay = regular * rate_f + overtime * rate_f * 1.5
    # round once, half up, on the week's total
    cents = Decimal(repr(pay)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{cents:f}"
