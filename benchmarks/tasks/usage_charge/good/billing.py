from decimal import ROUND_HALF_UP, Decimal

# (calls up to and including this count, price per call); None: no upper bound
TIERS = [
    (1_000, Decimal("0")),
    (10_000, Decimal("0.375") / 1000),
    (100_000, Decimal("0.15") / 1000),
    (None, Decimal("0.08") / 1000),
]
CENT = Decimal("0.01")


def usage_charge(calls: int) -> Decimal:
    """The month's charge for `calls` API calls: graduated tiers, rounded once, half up."""
    if calls < 0:
        raise ValueError(f"calls must not be negative, got {calls}")
    total = Decimal(0)
    below = 0  # calls already billed by the lower tiers
    for upto, price in TIERS:
        top = calls if upto is None else min(calls, upto)
        if top > below:
            total += (top - below) * price
        if upto is None or calls <= upto:
            break
        below = upto
    return total.quantize(CENT, rounding=ROUND_HALF_UP)
