"""Allow link previews only for example.com."""

from urllib.parse import urlsplit


def is_allowed(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return False
    # Compare the whole authority: anything with userinfo or odd syntax is rejected.
    netloc = parts.netloc.lower()
    return netloc == "example.com" or (
        netloc.endswith(".example.com") and all(c.isalnum() or c in ".-" for c in netloc)
    )
