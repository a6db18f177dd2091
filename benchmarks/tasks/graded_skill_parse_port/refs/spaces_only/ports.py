def parse_port(text: str) -> int:
    """The port number in what a user typed: ASCII digits, no sign, no leading zero, 1-65535."""
    digits = text.strip(" ")  # spaces, as the prompt says; a tab or a line break is refused
    if not digits or not digits.isascii() or not digits.isdigit():
        raise ValueError(f"not a port number: {text!r}")
    if len(digits) > 1 and digits.startswith("0"):
        raise ValueError(f"a port has no leading zeros: {text!r}")
    port = int(digits)
    if not 1 <= port <= 65535:
        raise ValueError(f"a port is between 1 and 65535: {text!r}")
    return port
