"""Port numbers typed into the settings form."""

import re

_DIGITS = re.compile(r"[0-9]+")


def parse_port(text: str) -> int:
    """The port typed into the settings form, as an int (1 to 65535)."""
    s = text.strip()
    if not _DIGITS.fullmatch(s):
        raise ValueError(f"not a port number: {text!r}")
    port = int(s)
    if not 1 <= port <= 65535:
        raise ValueError(f"port out of range (1 to 65535): {text!r}")
    return port
