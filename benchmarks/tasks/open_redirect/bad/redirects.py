def safe_next(url: str) -> str:
    """url if it is a path on this site, else '/'."""
    if url.startswith("/"):
        return url
    return "/"
