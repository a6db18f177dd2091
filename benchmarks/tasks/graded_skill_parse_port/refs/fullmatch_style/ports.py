import re

_PORT = re.compile(r"[1-9][0-9]{0,4}")


def parse_port(text: str) -> int:
    candidate = text.strip(" \t\r\n\f\v")
    if not _PORT.fullmatch(candidate):
        raise ValueError(f"not a port number: {text!r}")
    port = int(candidate)
    if port > 65535:
        raise ValueError(f"port out of range: {port}")
    return port
