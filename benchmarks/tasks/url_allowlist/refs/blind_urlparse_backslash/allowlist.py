"""Allow link previews only for example.com."""

from urllib.parse import urlparse

ALLOWED = "example.com"


def is_allowed(url: str) -> bool:
    try:
        parsed = urlparse(url.strip())
        host = parsed.hostname
    except ValueError:
        return False
    if parsed.scheme not in ("http", "https") or host is None:
        return False
    host = host.rstrip(".")
    return host == ALLOWED or host.endswith("." + ALLOWED)
