from decimal import Decimal

# Count in units of 1e-7 dollars, so that every price per call is an integer
# ($0.000375 is 3,750 units) and nothing is rounded before the total.
UNIT_PER_DOLLAR = 10_000_000
BANDS = [(0, 1_000, 0), (1_000, 10_000, 3_750), (10_000, 100_000, 1_500)]
ABOVE = 800  # per call, past 100,000


def usage_charge(calls):
    if calls < 0:
        raise ValueError("negative number of calls")
    units = 0
    for low, high, price in BANDS:
        units += max(0, min(calls, high) - low) * price
    units += max(0, calls - 100_000) * ABOVE
    per_cent = UNIT_PER_DOLLAR // 100
    cents, rest = divmod(units, per_cent)
    if 2 * rest >= per_cent:
        cents += 1
    return Decimal(cents).scaleb(-2)  # exponent -2: always two decimal places
