from decimal import ROUND_HALF_UP, Decimal


def usage_charge(calls):
    """All billable calls at the price of the tier the month reached."""
    if calls < 0:
        raise ValueError("negative number of calls")
    if calls <= 1_000:
        return Decimal("0.00")
    if calls <= 10_000:
        price = Decimal("0.375")
    elif calls <= 100_000:
        price = Decimal("0.15")
    else:
        price = Decimal("0.08")
    return ((calls - 1_000) * price / 1000).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
