import json
from html.parser import HTMLParser

import pytest


class Links(HTMLParser):
    """The (text, href) of every <a> in a fragment, as a browser reads them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self._open = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self._open = [dict(attrs).get("href"), ""]

    def handle_data(self, data):
        if self._open is not None:
            self._open[1] += data

    def handle_endtag(self, tag):
        if tag == "a" and self._open is not None:
            self.links.append((self._open[1], self._open[0]))
            self._open = None


def links(html):
    parser = Links()
    parser.feed(html)
    parser.close()
    return parser.links


CASES = {
    "/docs/Annual%20Reports/2024": [
        ("Home", "/"), ("docs", "/docs"), ("Annual Reports", "/docs/Annual%20Reports"),
        ("2024", "/docs/Annual%20Reports/2024"),
    ],
    "/": [("Home", "/")],
    "//a///b/": [("Home", "/"), ("a", "/a"), ("b", "/a/b")],
    "/caf%C3%A9/a%2Fb": [("Home", "/"), ("café", "/caf%C3%A9"), ("a/b", "/caf%C3%A9/a%2Fb")],
    "/100%/x%zz/%E0%A4%A/ok%21": [
        ("Home", "/"), ("100%", "/100%"), ("x%zz", "/100%/x%zz"), ("%E0%A4%A", "/100%/x%zz/%E0%A4%A"),
        ("ok!", "/100%/x%zz/%E0%A4%A/ok%21"),
    ],
    "/%FF%FE/%C3": [("Home", "/"), ("%FF%FE", "/%FF%FE"), ("%C3", "/%FF%FE/%C3")],
    "/a+b/%2B": [("Home", "/"), ("a+b", "/a+b"), ("+", "/a+b/%2B")],
    "/Tom%20%26%20Jerry/%3Cdraft%3E/%26lt%3Bb%26gt%3B": [
        ("Home", "/"), ("Tom & Jerry", "/Tom%20%26%20Jerry"), ("<draft>", "/Tom%20%26%20Jerry/%3Cdraft%3E"),
        ("&lt;b&gt;", "/Tom%20%26%20Jerry/%3Cdraft%3E/%26lt%3Bb%26gt%3B"),
    ],
    "/it's/%22quoted%22": [("Home", "/"), ("it's", "/it's"), ('"quoted"', "/it's/%22quoted%22")],
}


@pytest.fixture(scope="module")
def outputs(js_batch):
    return js_batch("breadcrumbs.js", f"""
        const breadcrumbs = pick('breadcrumbs');
        const out = {{}};
        for (const path of {json.dumps(list(CASES))}) out[path] = attempt(() => breadcrumbs(path));
        return out;
    """)


@pytest.mark.parametrize("path", list(CASES))
def test_trail(outputs, path):
    got = outputs[path]
    assert got["ok"], f"breadcrumbs({path!r}) threw {got.get('name')}: {got.get('message')}"
    assert isinstance(got["value"], str), f"breadcrumbs({path!r}) should return a string, got {got['value']!r}"
    found = links(got["value"])
    assert found == CASES[path], (
        f"breadcrumbs({path!r}) gave the links (text, href) {found}, expected {CASES[path]} "
        f"(HTML: {got['value']!r})")
