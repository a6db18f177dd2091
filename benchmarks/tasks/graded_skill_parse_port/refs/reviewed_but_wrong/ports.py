def parse_port(text: str) -> int:
    text = text.strip()
    if not text.isdigit():
        raise ValueError(f"not a port number: {text!r}")
    port = int(text)
    if not 1 <= port <= 65535:
        raise ValueError(f"port out of range: {port}")
    return port
