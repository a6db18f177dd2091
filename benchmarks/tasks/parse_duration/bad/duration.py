import re

UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def parse_duration(text):
    """'1h30m' -> 5400."""
    if not text:
        raise ValueError("empty duration")
    total = 0
    for n, unit in re.findall(r"(\d+)([dhms])", text):
        total += int(n) * UNITS[unit]
    return total
