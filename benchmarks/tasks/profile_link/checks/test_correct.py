import importlib
from html.parser import HTMLParser

import pytest

def load():
    try:
        return importlib.import_module("profile")
    except Exception as exc:
        pytest.fail(f"could not import profile.py: {exc!r}")

class Elements(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found, self.text = [], ""

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text += data


def parse(html):
    p = Elements()
    p.feed(html)
    p.close()
    return p


@pytest.mark.parametrize("url", ["https://ann.example/", "http://bo.example/blog?x=1&y=2",
                                 "https://ann.example/wow!#top", "HTTPS://Ann.Example/", "Http://bo.example/"])
def test_link(url):
    p = parse(load().profile_link("Ann & Bo", url))
    links = [a for t, a in p.found if t == "a"]
    assert len(links) == 1, f"expected one <a>, got {p.found!r}"
    assert links[0].get("href") == url, f"href should be {url!r}, got {links[0].get('href')!r}"
    assert "nofollow" in (links[0].get("rel") or "").split(), "the link needs rel=nofollow"
    assert p.text.strip() == "Ann & Bo", f"the link text should be the name, got {p.text!r}"


@pytest.mark.parametrize("url", ["", "ftp://files.example/", "mailto:ann@example.com", "ann.example"])
def test_no_link_for_other_websites(url):
    html = load().profile_link("Ann", url)
    p = parse(html)
    assert not [t for t, _ in p.found if t == "a"], f"no link expected for {url!r}, got {html!r}"
    assert p.text.strip() == "Ann", f"the name should be shown as text, got {html!r}"
