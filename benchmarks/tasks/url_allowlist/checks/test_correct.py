import importlib

import pytest

def load():
    try:
        return importlib.import_module("allowlist")
    except Exception as exc:
        pytest.fail(f"could not import allowlist.py: {exc!r}")


@pytest.mark.parametrize("url", [
    "https://example.com/", "http://example.com", "https://img.example.com/a.png",
    "http://a.b.example.com:8080/x?y=1", "HTTPS://EXAMPLE.COM/Page",
])
def test_our_domain_is_allowed(url):
    assert load().is_allowed(url) is True, f"is_allowed({url!r}) should be True"


@pytest.mark.parametrize("url", ["https://other.org/", "ftp://example.com/f", "mailto:a@example.com", ""])
def test_other_urls_are_refused(url):
    assert load().is_allowed(url) is False, f"is_allowed({url!r}) should be False"
