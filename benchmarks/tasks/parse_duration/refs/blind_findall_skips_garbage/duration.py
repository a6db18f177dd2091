"""Durations in config files, like '1h30m', to seconds."""
import re

_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_PART = re.compile(r"(\d+)\s*([dhms])")


def parse_duration(text: str) -> int:
    parts = _PART.findall(text)
    if not parts:
        raise ValueError(f"invalid duration: {text!r}")
    return sum(int(number) * _UNITS[unit] for number, unit in parts)
