"""Monthly charge for API usage, graduated pricing, computed exactly with Decimal."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
FREE_CALLS = 1_000

# (calls up to and including, price per 1,000 calls) after the free tier
_TIERS = [
    (10_000, Decimal("0.375")),
    (100_000, Decimal("0.15")),
    (None, Decimal("0.08")),
]


def usage_charge(calls: int) -> Decimal:
    if calls < 0:
        raise ValueError("calls must not be negative")
    if calls <= FREE_CALLS:
        return Decimal(0)  # the first 1,000 calls are free
    total = Decimal(0)
    lower = FREE_CALLS
    for upper, per_thousand in _TIERS:
        top = calls if upper is None else min(calls, upper)
        if top > lower:
            total += Decimal(top - lower) * per_thousand / 1000
        if upper is None or calls <= upper:
            break
        lower = upper
    return total.quantize(CENT, rounding=ROUND_HALF_UP)
