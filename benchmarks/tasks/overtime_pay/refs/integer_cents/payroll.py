def _hundredths(text):
    """'7.5' -> 750: the value in hundredths, or ValueError."""
    if not isinstance(text, str):
        raise ValueError(f"not a string: {text!r}")
    whole, dot, frac = text.partition(".")
    if not whole.isdigit() or not whole.isascii() or (dot and not (1 <= len(frac) <= 2 and frac.isdigit() and frac.isascii())):
        raise ValueError(f"not an amount with at most two decimals: {text!r}")
    return int(whole) * 100 + int(frac.ljust(2, "0") or 0)


def weekly_pay(hours, rate):
    cents_rate = _hundredths(rate)
    worked = sum(_hundredths(h) for h in hours)  # hundredths of an hour
    regular = min(worked, 4000)
    overtime = worked - regular
    # in units of 1/20000 of a dollar: hours/100 * cents/100 * (2 or 3)/2
    units = regular * cents_rate * 2 + overtime * cents_rate * 3
    cents, rest = divmod(units, 200)
    if rest * 2 >= 200:
        cents += 1
    return f"{cents // 100}.{cents % 100:02d}"
