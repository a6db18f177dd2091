"""Monthly charge for API usage, graduated pricing."""

from decimal import ROUND_HALF_UP, Decimal

# (calls up to and including, price per 1,000 calls in dollars)
_TIERS = [
    (1_000, 0.0),
    (10_000, 0.375),
    (100_000, 0.15),
    (None, 0.08),
]


def usage_charge(calls: int) -> Decimal:
    if calls < 0:
        raise ValueError("calls must not be negative")
    total = 0.0
    lower = 0
    for upper, per_thousand in _TIERS:
        top = calls if upper is None else min(calls, upper)
        if top > lower:
            total += (top - lower) * per_thousand / 1000
        if upper is None or calls <= upper:
            break
        lower = upper
    return Decimal(str(total)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
