import importlib

import pytest

def load():
    try:
        return importlib.import_module("cookies")
    except Exception as exc:
        pytest.fail(f"could not import cookies.py: {exc!r}")


@pytest.mark.parametrize("name, value", [
    ("lang", "x\r\nSet-Cookie:admin=1"),
    ("lang", "x\nLocation:https://evil.example"),
    ("lang", "x\rX-Injected:1"),
    ("lang", "x\r\n\r\n<script>alert(1)</script>"),
    ("lang\r\nX-Injected:1", "x"),
    ("lang", "x\u0085X-Injected:1"),
    ("lang", "x\x00y"),
    ("lang", "x\n"),
    ("lang\n", "x"),
    ("lang", "x\r\n"),
])
def test_header_cannot_be_split(name, value):
    try:
        line = load().set_cookie_header(name, value)
    except Exception:
        return  # refusing is the right answer
    assert not any(c in str(line) for c in "\r\n\x00\x85"), (
        f"set_cookie_header({name!r}, {value!r}) returned {line!r}: a line break from the user "
        "starts a new header or the body (HTTP response splitting)")
