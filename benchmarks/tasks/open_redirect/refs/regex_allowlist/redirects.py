import re

_PATH = re.compile(r"/(?![/\\])[A-Za-z0-9._~!$&'()*+,;=:@%/?#\[\]-]*")


def safe_next(url):
    return url if isinstance(url, str) and _PATH.fullmatch(url) else "/"
