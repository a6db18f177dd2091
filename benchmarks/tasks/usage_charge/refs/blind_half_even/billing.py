"""Monthly charge for API usage, graduated pricing, computed exactly with Decimal."""

from decimal import Decimal

CENT = Decimal("0.01")

# (calls up to and including, price per 1,000 calls)
_TIERS = [
    (1_000, Decimal("0")),
    (10_000, Decimal("0.375")),
    (100_000, Decimal("0.15")),
    (None, Decimal("0.08")),
]


def usage_charge(calls: int) -> Decimal:
    if calls < 0:
        raise ValueError("calls must not be negative")
    total = Decimal(0)
    lower = 0
    for upper, per_thousand in _TIERS:
        top = calls if upper is None else min(calls, upper)
        if top > lower:
            total += Decimal(top - lower) * per_thousand / 1000
        if upper is None or calls <= upper:
            break
        lower = upper
    # Round the month's total once, to whole cents.
    return total.quantize(CENT)
