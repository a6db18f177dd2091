from urllib.parse import urlsplit

DOMAIN = "example.com"


def is_allowed(url: str) -> bool:
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return False
    if parts.scheme.lower() not in ("http", "https"):
        return False
    return host == DOMAIN or host.endswith("." + DOMAIN)
