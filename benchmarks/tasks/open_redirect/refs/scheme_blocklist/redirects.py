def safe_next(url):
    if not url or "://" in url or url.startswith("//"):
        return "/"
    if not url.startswith("/"):
        return "/"
    return url
