"""A week's gross pay with overtime, in exact decimal arithmetic."""

import re
from decimal import ROUND_HALF_UP, Decimal

_AMOUNT = re.compile(r"\d+(?:\.\d{1,2})?")
_WEEK = Decimal(40)
_OVERTIME = Decimal("1.5")


def _parse(value: object, what: str) -> Decimal:
    if not isinstance(value, str) or not _AMOUNT.fullmatch(value):
        raise ValueError(f"{what} must be a number with at most two decimals, got {value!r}")
    return Decimal(value)


def weekly_pay(hours: list[str], rate: str) -> str:
    per_hour = _parse(rate, "rate")
    total_hours = sum((_parse(h, "hours") for h in hours), Decimal(0))
    regular = min(total_hours, _WEEK)
    overtime = total_hours - regular
    pay = regular * per_hour + overtime * per_hour * _OVERTIME
    return str(pay.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
