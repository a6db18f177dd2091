"""Small helpers for the command-line options of our backup tool."""

import re


def parse_count(text: str) -> int:
    """A count typed on the command line: a whole number, 0 or more."""
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        raise ValueError(f"not a count: {text!r}")
    return int(text)


_SIZE_UNITS = {
    "": 1,
    "b": 1,
    "kb": 1000,
    "mb": 1000**2,
    "gb": 1000**3,
    "kib": 1024,
    "mib": 1024**2,
    "gib": 1024**3,
}

_SIZE = re.compile(r"\s*([0-9]*)(?:\.([0-9]*))?\s*([A-Za-z]*)\s*")


def parse_size(text: str) -> int:
    """A size typed on the command line, in bytes: `512`, `10 KB`, `1.5GiB`.

    KB, MB and GB are powers of 1000, KiB, MiB and GiB powers of 1024, in any case; no unit
    means bytes. The size must come to a whole number of bytes.
    """
    match = _SIZE.fullmatch(text)
    if not match:
        raise ValueError(f"not a size: {text!r}")
    whole, frac, unit = match.group(1), match.group(2) or "", match.group(3)
    if not whole and not frac:
        raise ValueError(f"not a size: {text!r}")
    factor = _SIZE_UNITS.get(unit.lower())
    if factor is None:
        raise ValueError(f"unknown unit in size: {text!r}")
    scaled = int(whole + frac) * factor
    divisor = 10 ** len(frac)
    if scaled % divisor:
        raise ValueError(f"not a whole number of bytes: {text!r}")
    return scaled // divisor
