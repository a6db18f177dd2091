"""Author box link for blog posts."""

from html import escape


def profile_link(name: str, website: str) -> str:
    """Return an <a> linking the author's name to their website, or just the name."""
    text = escape(name)
    if not website or not website.startswith(("http://", "https://")):
        return text
    return f'<a href="{escape(website)}" rel="nofollow">{text}</a>'
