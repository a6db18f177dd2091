"""Small helpers for the command-line options of our backup tool."""


def parse_count(text: str) -> int:
    """A count typed on the command line: a whole number, 0 or more."""
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        raise ValueError(f"not a count: {text!r}")
    return int(text)


_UNITS = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3, "KIB": 1024, "MIB": 1024**2, "GIB": 1024**3}


def parse_size(text: str) -> int:
    """A size like 1.5GiB as a number of bytes."""
    text = text.strip().upper()
    number = text.rstrip("KMGIB ")
    unit = text[len(number):].strip() or "B"
    if unit not in _UNITS:
        raise ValueError(f"unknown unit: {unit}")
    return int(float(number) * _UNITS[unit])
