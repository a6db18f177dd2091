"""Author box link for blog posts."""

import html
import re

_HTTP_URL = re.compile(r"^https?://\S+$", re.IGNORECASE | re.MULTILINE)


def profile_link(name: str, website: str) -> str:
    """Return an <a> linking the author's name to their website, or just the name."""
    text = html.escape(name)
    if not website or not _HTTP_URL.search(website):
        return text
    return f'<a href="{html.escape(website)}" rel="nofollow">{text}</a>'
