from urllib.parse import urlsplit


def is_allowed(url):
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and (parts.hostname or "") == "example.com"
