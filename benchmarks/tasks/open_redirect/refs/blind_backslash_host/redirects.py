"""Validate the ?next= target after login."""

from urllib.parse import urlsplit


def safe_next(url: str) -> str:
    """Return `url` if it is a path on our own site, else "/"."""
    if not url or not url.startswith("/"):
        return "/"
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return "/"  # e.g. //evil.com
    return url
