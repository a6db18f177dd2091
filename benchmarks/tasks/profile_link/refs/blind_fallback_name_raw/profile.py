"""Author box link for blog posts."""

import html
from urllib.parse import urlparse


def profile_link(name: str, website: str) -> str:
    """Return an <a> linking the author's name to their website, or just the name."""
    if not website:
        return name
    parsed = urlparse(website.strip())
    if parsed.scheme.lower() not in ("http", "https") or not parsed.netloc:
        return name
    return (
        f'<a href="{html.escape(website.strip(), quote=True)}" rel="nofollow">'
        f"{html.escape(name)}</a>"
    )
