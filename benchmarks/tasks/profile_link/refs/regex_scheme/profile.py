import html
import re

_WEB = re.compile(r"https?://[^\s\x00-\x1f]+", re.IGNORECASE)


def profile_link(name, website):
    if not website or not _WEB.fullmatch(website):
        return html.escape(name)
    return '<a rel="nofollow" href="%s">%s</a>' % (html.escape(website), html.escape(name))
