"""Monthly charge for API usage, graduated pricing, computed exactly with Decimal."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")

# (calls in the tier, price per 1,000 calls); the last tier takes every remaining call.
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
    remaining = calls
    for width, per_thousand in _TIERS:
        in_tier = remaining if width is None else min(remaining, width)
        total += Decimal(in_tier) * per_thousand / 1000
        remaining -= in_tier
        if remaining == 0:
            break
    return total.quantize(CENT, rounding=ROUND_HALF_UP)
