import re
from urllib.parse import urlparse

_HOST = re.compile(r"(?:[a-z0-9-]+\.)*example\.com", re.IGNORECASE)


def is_allowed(url):
    if "\\" in url:  # requests reads a backslash as the end of the host, urlparse does not
        return False
    try:
        parsed = urlparse(url)
        host = parsed.hostname
    except ValueError:
        return False
    return parsed.scheme.lower() in {"http", "https"} and bool(host) and bool(_HOST.fullmatch(host))
