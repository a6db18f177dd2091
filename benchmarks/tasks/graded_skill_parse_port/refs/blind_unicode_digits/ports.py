"""Port numbers typed into the settings form."""

def parse_port(text: str) -> int:
    """The port typed into the settings form, as an int (1 to 65535)."""
    s = text.strip()
    if not s or not s.isdigit():
        raise ValueError(f"not a port number: {text!r}")
    if len(s) > 1 and s[0] == "0":
        raise ValueError(f"no leading zeros in a port: {text!r}")
    port = int(s)
    if not 1 <= port <= 65535:
        raise ValueError(f"port out of range (1 to 65535): {text!r}")
    return port
