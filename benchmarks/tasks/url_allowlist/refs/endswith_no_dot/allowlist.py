from urllib.parse import urlparse


def is_allowed(url):
    parsed = urlparse(url)
    host = (parsed.hostname or "").lower()
    return parsed.scheme.lower() in ("http", "https") and host.endswith("example.com")
