from urllib.parse import urlsplit


def is_allowed(url):
    if "\\" in url:
        return False
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and (parts.hostname or "") == "example.com"
