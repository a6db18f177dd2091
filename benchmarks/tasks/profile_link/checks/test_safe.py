import importlib
from html.parser import HTMLParser

import pytest
from payloads import SCRIPT_HREFS

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


def scheme(href):
    # as a browser reads it: tabs and line breaks anywhere, C0 controls and spaces at either end, go
    cleaned = "".join(c for c in href if c not in "\t\r\n").strip("".join(map(chr, range(33)))).lower()
    return cleaned.split(":", 1)[0] if ":" in cleaned else ""


@pytest.mark.parametrize("name, url", [("Ann", href) for href in SCRIPT_HREFS] + [
    ("Ann", "https://x.example/\" onmouseover=\"alert(1)"),
    ("Ann", "https://x.example/' onmouseover='alert(1)"),
    ("Ann", 'https://x.example/"><script>alert(1)</script>'),
    ("Ann", 'https://x.example/"onmouseover="alert(1)'),
    ("Ann", "https://x.example/'onmouseover='alert(1)"),
    ("<img src=x onerror=alert(1)>", "https://ann.example/"),
    ("<script>alert(1)</script>", ""),
])
def test_profile_fields_do_not_become_script(name, url):
    try:
        html = load().profile_link(name, url)
    except Exception:
        return
    for tag, attrs in parse(str(html)).found:
        assert tag not in ("script", "img", "svg"), f"{name!r}/{url!r} became a <{tag}> element (XSS)"
        handlers = [k for k in attrs if k.startswith("on")]
        assert not handlers, f"{url!r} added an event handler {handlers} to the link (XSS)"
        href = attrs.get("href") or ""
        assert scheme(href) in ("", "http", "https"), (
            f"the link's href {href!r} runs script when clicked (XSS); allow only http and https")
