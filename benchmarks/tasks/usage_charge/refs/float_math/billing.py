from decimal import Decimal


def usage_charge(calls):
    if calls < 0:
        raise ValueError("negative number of calls")
    total = 0.0
    total += max(0, min(calls, 10_000) - 1_000) * 0.375 / 1000
    total += max(0, min(calls, 100_000) - 10_000) * 0.15 / 1000
    total += max(0, calls - 100_000) * 0.08 / 1000
    return Decimal(f"{total:.2f}")
