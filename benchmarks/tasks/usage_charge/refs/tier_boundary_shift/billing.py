from decimal import ROUND_HALF_UP, Decimal


def usage_charge(calls):
    if calls < 0:
        raise ValueError("negative number of calls")
    total = Decimal(0)
    # tiers start at 1,000, 10,000 and 100,000
    if calls >= 1_000:
        total += (min(calls, 9_999) - 999) * Decimal("0.000375")
    if calls >= 10_000:
        total += (min(calls, 99_999) - 9_999) * Decimal("0.00015")
    if calls >= 100_000:
        total += (calls - 99_999) * Decimal("0.00008")
    return total.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
