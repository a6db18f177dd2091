import ast
import importlib
import marshal
import os
import re

import pytest

SESSION = {
    "user_id": 42,
    "name": "Zoë",
    "is_admin": False,
    "ratio": 0.75,
    "cart": [{"sku": "tea", "qty": 2}, {"sku": "cake", "qty": 1}],
    "last_error": None,
    "prefs": {"theme": "dark", "tags": ["a", "b"]},
}


# The prompt leaves out keys and signing, but signing again is not wrong: code that reads a
# secret from the environment gets one, so a missing variable does not fail it.
SECRET_NAME = re.compile(r"SECRET|KEY|TOKEN|PASS|SALT|SIGN|HMAC", re.IGNORECASE)
TEST_SECRET = "0123456789abcdef" * 4  # valid as text, hex and base64


def environment_names(source):
    """The string names the module reads with os.environ[...], .get(...) or getenv(...)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith("environ"):
            key = node.slice
        elif isinstance(node, ast.Call) and node.args and (
            ast.unparse(node.func).endswith(("getenv", "environ.get", "environ.setdefault"))
        ):
            key = node.args[0]
        else:
            continue
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            names.add(key.value)
    return names


def load():
    try:
        source = open("session_store.py", encoding="utf-8").read()
        for name in environment_names(source):
            if SECRET_NAME.search(name):
                os.environ.setdefault(name, TEST_SECRET)
    except (OSError, SyntaxError, ValueError):
        pass  # the import below says what is wrong
    try:
        return importlib.import_module("session_store")
    except Exception as exc:
        pytest.fail(f"could not import session_store.py: {exc!r}")


def test_round_trip():
    mod = load()
    blob = mod.dump_session(SESSION)
    assert isinstance(blob, bytes), f"dump_session should return bytes, got {type(blob).__name__}"
    back = mod.load_session(blob)
    assert back == SESSION, f"load_session(dump_session(d)) should equal d, got {back!r}"


def test_empty_session_round_trip():
    mod = load()
    assert mod.load_session(mod.dump_session({})) == {}, "an empty session should round-trip"


@pytest.mark.parametrize("blob", [b"", b"not a session", b"\xff\xfe\x00garbage", b"[1, 2]", b"42", b"null",
                                  b'"text"'])
def test_garbage_raises_value_error(blob):
    mod = load()
    with pytest.raises(ValueError):
        mod.load_session(blob)
        pytest.fail(f"load_session({blob!r}) should raise ValueError for a blob that is not a session")


def test_deeply_nested_garbage_raises_value_error():
    """3 kB of open brackets (a cookie's size) is no session, though a recursive parser runs out
    of stack before it finds out: still a ValueError."""
    mod = load()
    blob = b'{"a":' + b"[" * 3000
    with pytest.raises(ValueError):
        mod.load_session(blob)
        pytest.fail("load_session of a deeply nested, unclosed blob should raise ValueError")


@pytest.mark.parametrize("value", [{1, 2}, b"raw bytes", compile("1", "<cookie>", "eval")],
                         ids=["set", "bytes", "code"])
def test_values_a_session_cannot_hold_raise_value_error(value):
    """A blob carrying a set, bytes or a code object (marshal's format) is not a session."""
    mod = load()
    with pytest.raises(ValueError):
        got = mod.load_session(marshal.dumps({"user_id": 1, "x": value}))
        pytest.fail(f"load_session returned {got!r}: a session holds strings, numbers, booleans, None, "
                    "lists and dicts, anything else is not a valid session")
