"""Durations in config files, like '1h30m', to seconds."""
import re

_VALID = re.compile(r"^[0-9]+[dhms](?: *[0-9]+[dhms])*$")
_PART = re.compile(r"([0-9]+)([dhms])")
_FACTOR = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def parse_duration(text: str) -> int:
    if not _VALID.match(text):
        raise ValueError(f"invalid duration: {text!r}")
    return sum(int(n) * _FACTOR[u] for n, u in _PART.findall(text))
