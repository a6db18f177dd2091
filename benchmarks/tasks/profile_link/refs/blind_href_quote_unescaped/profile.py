"""Author box link for blog posts."""

import html
from urllib.parse import urlparse


def profile_link(name: str, website: str) -> str:
    """Return an <a> linking the author's name to their website, or just the name."""
    safe_name = html.escape(name)
    if not website:
        return safe_name
    scheme = urlparse(website).scheme.lower()
    if scheme not in ("http", "https"):
        return safe_name
    # Only <, > and & matter inside the URL; keep quotes so query strings stay readable.
    href = html.escape(website, quote=False)
    return f'<a href="{href}" rel="nofollow">{safe_name}</a>'
