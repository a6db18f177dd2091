"""Durations in config files, like '1h30m', to seconds."""
import re

_UNIT_SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_DURATION = re.compile(r"(?:\d+[dhms])(?: ?\d+[dhms])*")
_PART = re.compile(r"(\d+)([dhms])")


def parse_duration(text: str) -> int:
    if not isinstance(text, str) or not _DURATION.fullmatch(text):
        raise ValueError(f"invalid duration: {text!r}")
    return sum(int(n) * _UNIT_SECONDS[u] for n, u in _PART.findall(text))
