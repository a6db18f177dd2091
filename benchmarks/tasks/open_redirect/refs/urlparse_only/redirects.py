from urllib.parse import urlparse


def safe_next(url):
    parsed = urlparse(url)
    if parsed.scheme or parsed.netloc or not url.startswith("/"):
        return "/"
    return url
