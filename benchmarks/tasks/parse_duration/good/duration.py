import re

UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_DURATION = re.compile(r"\s*(?:\d+[dhms]\s*)+")
_PART = re.compile(r"(\d+)([dhms])")


def parse_duration(text):
    """'1h30m' -> 5400. ValueError for anything that is not a duration."""
    if not isinstance(text, str) or not _DURATION.fullmatch(text):
        raise ValueError(f"not a duration: {text!r}")
    return sum(int(n) * UNITS[unit] for n, unit in _PART.findall(text))
