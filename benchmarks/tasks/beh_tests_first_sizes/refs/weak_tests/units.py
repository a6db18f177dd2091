"""Small helpers for the command-line options of our backup tool."""


def parse_count(text: str) -> int:
    """A count typed on the command line: a whole number, 0 or more."""
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        raise ValueError(f"not a count: {text!r}")
    return int(text)


_FACTORS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30}


def parse_size(text: str) -> int:
    """Bytes from a size such as '512', '10 KB' or '1.5GiB'."""
    text = text.strip()
    i = 0
    while i < len(text) and (text[i] in "0123456789."):
        i += 1
    number, unit = text[:i], text[i:].strip().lower()
    if not number or number.count(".") > 1 or number == ".":
        raise ValueError(f"bad size: {text!r}")
    if unit not in _FACTORS:
        raise ValueError(f"bad unit: {text!r}")
    whole, _, frac = number.partition(".")
    scale = 10 ** len(frac)
    numerator = int(whole or "0") * scale + int(frac or "0")
    total, rest = divmod(numerator * _FACTORS[unit], scale)
    if rest:
        raise ValueError(f"not a whole number of bytes: {text!r}")
    return total
