"""Small helpers for the command-line options of our backup tool."""


def parse_count(text: str) -> int:
    """A count typed on the command line: a whole number, 0 or more."""
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        raise ValueError(f"not a count: {text!r}")
    return int(text)
