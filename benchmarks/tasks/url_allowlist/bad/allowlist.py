def is_allowed(url: str) -> bool:
    return url.startswith(("http://", "https://")) and "example.com" in url
