"""Allow link previews only for example.com."""

from urllib.parse import urlsplit


def is_allowed(url: str) -> bool:
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # raises ValueError on a malformed port
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not host:
        return False
    return host.endswith("example.com")
