import re


def safe_next(url):
    return url if re.fullmatch(r"/[A-Za-z0-9_/.-]*", url or "") and "//" not in url else "/"
