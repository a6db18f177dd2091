"""Validate the ?next= target after login."""

from urllib.parse import urlparse


def safe_next(url: str) -> str:
    """Return `url` if it is a path on our own site, else "/"."""
    parsed = urlparse(url)
    if parsed.scheme or parsed.netloc or url.startswith("//"):
        return "/"
    return url or "/"
