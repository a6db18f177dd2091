"""Validate the ?next= target after login."""


def safe_next(url: str) -> str:
    """Return `url` if it is a path on our own site, else "/"."""
    if not url.startswith("/"):
        return "/"
    # Any '//' or '\' or a scheme separator anywhere means an external URL.
    if "//" in url or "\\" in url or ":" in url:
        return "/"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in url):
        return "/"
    return url
