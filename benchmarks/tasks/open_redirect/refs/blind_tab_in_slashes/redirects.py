"""Validate the ?next= target after login."""


def safe_next(url: str) -> str:
    """Return `url` if it is a path on our own site, else "/"."""
    # A local path starts with exactly one slash; '//host' and '/\host' are
    # protocol-relative URLs to another site in browsers.
    if url.startswith("/") and not url.startswith(("//", "/\\")):
        return url
    return "/"
