import re

_ALLOWED = re.compile(r"^https?://([a-z0-9.-]+\.)?example\.com", re.IGNORECASE)


def is_allowed(url):
    return bool(_ALLOWED.match(url))
