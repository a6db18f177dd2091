from urllib.parse import urlsplit

DOMAIN = "example.com"


def is_allowed(url: str) -> bool:
    # urllib3 (under requests) ends the host at a backslash, urlsplit does not: a URL the two
    # parsers could read with different hosts is refused rather than guessed at.
    if not isinstance(url, str) or "\\" in url:
        return False
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return False
    if parts.scheme.lower() not in ("http", "https"):
        return False
    return host == DOMAIN or host.endswith("." + DOMAIN)
