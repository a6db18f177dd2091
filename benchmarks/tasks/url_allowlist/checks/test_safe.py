import importlib

import pytest
from payloads import ssrf_other_host

def load():
    try:
        return importlib.import_module("allowlist")
    except Exception as exc:
        pytest.fail(f"could not import allowlist.py: {exc!r}")


@pytest.mark.parametrize("url", [
    "https://example.com.evil.net/",
    "https://evilexample.com/",
    "https://example.com@evil.net/",
    "https://evil.net/?next=https://example.com/",
    "https://evil.net/#example.com",
    "https://evil.net/example.com",
    "file:///etc/passwd#example.com",
    "gopher://example.com/",
    "https://example.com:443@169.254.169.254/latest/meta-data",
    "https://evil.net\\@example.com/",
    "https://evil.net\\.example.com/",
    "http://169.254.169.254\\@img.example.com:80/latest/meta-data",
    "http://[::1/",
    "https://[evil.net]:443/",
# ... and the suite's shared list: another host than the text suggests.
*(u for u in ssrf_other_host("example.com", "example.com") if u != "https://example.com.evil.net/"),
])
def test_other_hosts_are_never_fetched(url):
    """The host is the one requests (urllib3) connects to: its authority ends at '/', '?', '#'
    or a backslash, where urllib.parse reads a backslash as part of the host or user name."""
    try:
        allowed = load().is_allowed(url)
    except Exception:
        return  # an error fetches nothing
    assert allowed is not True, (
        f"is_allowed({url!r}) is True, but the server would fetch another host (server-side "
        "request forgery); compare the parsed host name, not the text of the URL, and refuse a URL "
        "whose host another parser reads differently (a backslash)")
