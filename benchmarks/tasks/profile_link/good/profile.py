from html import escape
from urllib.parse import urlsplit


def profile_link(name: str, website: str) -> str:
    text = escape(name)
    url = (website or "").strip()
    if urlsplit(url).scheme.lower() not in ("http", "https") or any(ord(c) < 33 for c in url):
        return text
    return f'<a href="{escape(url, quote=True)}" rel="nofollow">{text}</a>'
