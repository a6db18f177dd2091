import json
from html.parser import HTMLParser

import pytest

BENIGN = "/docs/Annual%20Reports/2024"
HOSTILE = [
    "/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
    "/docs/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%20",
    "/%22%3E%3Csvg%20onload%3Dalert(1)%3E",
    "/%27%3E%3Csvg%20onload%3Dalert(1)%3E",
    '/x"onmouseover="alert(1)',
    "/x'onmouseover='alert(1)",
    '/a"><script>alert(1)</script>',
    "/a'><script>alert(1)</script>",
    "/<b>bold</b>/%3Ciframe%20src%3Djavascript:alert(1)%3E",
    "//evil.example/login",
    "///evil.example",
    "/%3C%21--/--%3E",
]


class Markup(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.hrefs = set(), set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for name, value in attrs:
            self.attrs.add(name)
            if name == "href":
                self.hrefs.append(value or "")

    handle_startendtag = handle_starttag

    def handle_comment(self, data):
        self.tags.add("<!-- comment -->")


def markup(html):
    parser = Markup()
    parser.feed(html)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def outputs(js_batch):
    return js_batch("breadcrumbs.js", f"""
        const breadcrumbs = pick('breadcrumbs');
        const out = {{}};
        for (const path of {json.dumps([BENIGN, *HOSTILE])}) out[path] = attempt(() => String(breadcrumbs(path)));
        return out;
    """)


@pytest.mark.parametrize("path", HOSTILE)
def test_path_adds_no_markup(outputs, path):
    got = outputs[path]
    if not got["ok"]:
        return  # an error is not what this check judges: it put nothing on the page
    benign = outputs[BENIGN]
    allowed = markup(benign["value"]) if benign["ok"] else markup("<a href='/'>Home</a>")
    seen = markup(got["value"])
    extra_tags = seen.tags - allowed.tags
    extra_attrs = seen.attrs - allowed.attrs
    assert not extra_tags and not extra_attrs, (
        f"breadcrumbs({path!r}) added markup of its own to the page (elements {sorted(extra_tags)}, "
        f"attributes {sorted(extra_attrs)}): {got['value']!r}; escape the text and the href")
    off_site = [h for h in seen.hrefs if not h.startswith("/") or h.startswith("//")]
    assert not off_site, (
        f"breadcrumbs({path!r}) made links that leave the site (protocol-relative or another scheme): "
        f"{off_site}")
