"""Small helpers for the command-line options of our backup tool."""

import re
from fractions import Fraction


def parse_count(text: str) -> int:
    """A count typed on the command line: a whole number, 0 or more."""
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        raise ValueError(f"not a count: {text!r}")
    return int(text)


_UNITS = {
    "b": 1,
    "kb": 1000,
    "mb": 1000**2,
    "gb": 1000**3,
    "kib": 1024,
    "mib": 1024**2,
    "gib": 1024**3,
}
_SIZE = re.compile(r"\s*(\d+\.?\d*|\.\d+)\s*([A-Za-z]*)\s*")


def parse_size(text: str) -> int:
    """A size typed on the command line (`512`, `10 KB`, `1.5GiB`) as a number of bytes."""
    match = _SIZE.fullmatch(text) if text.isascii() else None
    if match is None:
        raise ValueError(f"not a size: {text!r}")
    number, unit = match.groups()
    factor = _UNITS.get(unit.lower() or "b")
    if factor is None:
        raise ValueError(f"unknown unit in {text!r}")
    # Exact: a Fraction, so 8.2 MB is 8200000 and never 8199999.999999999.
    size = Fraction(number) * factor
    if size.denominator != 1:
        raise ValueError(f"{text!r} is not a whole number of bytes")
    return int(size)
