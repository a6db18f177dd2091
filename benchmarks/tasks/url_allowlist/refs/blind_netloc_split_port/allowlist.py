"""Allow link previews only for example.com."""

from urllib.parse import urlsplit


def is_allowed(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https"):
        return False
    # netloc is host[:port]; drop the port.
    host = parts.netloc.split(":")[0].lower()
    return host == "example.com" or host.endswith(".example.com")
