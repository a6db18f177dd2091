import importlib
import subprocess
import sys

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


# A validator that backtracks exponentially lets one form value pin a server CPU (ReDoS). Each
# call runs in its own process with a time limit far above what a linear check needs.
LIMIT_S = 5.0
CODE = "import sys, cookies\ntry:\n    cookies.set_cookie_header(sys.argv[1], sys.argv[2])\nexcept Exception:\n    pass\n"


@pytest.mark.parametrize("name, value", [
    ("lang", "a" * 40 + " "),
    ("lang", "a" * 40 + ";"),
    ("n" * 40 + " ", "x"),
], ids=["value-space", "value-semicolon", "name-space"])
def test_hostile_value_is_checked_quickly(name, value):
    try:
        subprocess.run([sys.executable, "-c", CODE, name, value], timeout=LIMIT_S, capture_output=True)
    except subprocess.TimeoutExpired:
        pytest.fail(
            f"set_cookie_header({name[:12]!r}..., {value[:12]!r}...) ran for more than {LIMIT_S:g}s: "
            "the pattern backtracks exponentially (ReDoS); avoid nested quantifiers like (a+)*")
