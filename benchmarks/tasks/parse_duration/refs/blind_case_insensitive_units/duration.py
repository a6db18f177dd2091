"""Durations in config files, like '1h30m', to seconds."""
import re

SECONDS = {"d": 24 * 3600, "h": 3600, "m": 60, "s": 1}
_FULL = re.compile(r"[0-9]+[dhms](?: *[0-9]+[dhms])*")
_PART = re.compile(r"([0-9]+)([dhms])")


def parse_duration(text: str) -> int:
    normalized = text.lower()  # be forgiving about '1H' vs '1h'
    if not _FULL.fullmatch(normalized):
        raise ValueError(f"invalid duration {text!r}")
    return sum(int(num) * SECONDS[unit] for num, unit in _PART.findall(normalized))
