"""Judged as a browser would follow it: tabs and newlines dropped, backslashes read as slashes,
leading spaces ignored."""
import importlib
from urllib.parse import urlsplit

import pytest
from payloads import OFFSITE_TARGETS

def load():
    try:
        return importlib.import_module("redirects")
    except Exception as exc:
        pytest.fail(f"could not import redirects.py: {exc!r}")


def leaves_the_site(target):
    cleaned = "".join(c for c in str(target) if c not in "\t\r\n").lstrip("".join(map(chr, range(33))))
    cleaned = cleaned.replace("\\", "/")
    parts = urlsplit(cleaned)
    return bool(parts.scheme or parts.netloc or cleaned.startswith("//"))


@pytest.mark.parametrize("url", OFFSITE_TARGETS + [
    "https://evil.example/",
    "javascript:alert(1)",
    "/%2F/ok",
])
def test_next_cannot_leave_the_site(url):
    try:
        target = load().safe_next(url)
    except Exception:
        return  # an error sends nobody anywhere
    assert not leaves_the_site(target), (
        f"safe_next({url!r}) returned {target!r}, which a browser follows to another site "
        "(open redirect)")
