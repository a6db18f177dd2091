from urllib.parse import urlsplit


def safe_next(url: str) -> str:
    """url if it is a path on this site, else '/'."""
    if not isinstance(url, str) or not url.startswith("/") or url.startswith("//"):
        return "/"
    if "\\" in url or any(ord(c) < 32 or ord(c) == 127 for c in url):
        return "/"
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return "/"
    return url
