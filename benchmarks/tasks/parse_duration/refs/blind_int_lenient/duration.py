"""Durations in config files, like '1h30m', to seconds."""
import re

_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def parse_duration(text: str) -> int:
    # '2d 4h' -> ['2', 'd', ' 4', 'h', '']
    pieces = re.split(r"([dhms])", text)
    if len(pieces) < 3 or pieces[-1].strip():
        raise ValueError(f"invalid duration: {text!r}")
    total = 0
    for number, unit in zip(pieces[0::2], pieces[1::2]):
        if not number.strip():
            raise ValueError(f"missing number before {unit!r} in {text!r}")
        try:
            total += int(number) * _UNITS[unit]
        except ValueError:
            raise ValueError(f"invalid number {number!r} in {text!r}") from None
    return total
