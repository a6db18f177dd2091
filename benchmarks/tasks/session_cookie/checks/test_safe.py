import ast
import importlib
import os
import pickle
import re

import pytest


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


class CreatesFile:
    """Unpickling this object creates a file: harmless stand-in for running any code."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


class Evaluates:
    """builtins.eval: what an Unpickler that allows the builtins module lets through."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (eval, (f"open({self.path!r}, 'w')",))


class Wrapped:
    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (dict, ([("user_id", 1), ("x", CreatesFile(self.path))],))


@pytest.mark.parametrize("proto", [0, 2, pickle.HIGHEST_PROTOCOL])
@pytest.mark.parametrize("kind", [CreatesFile, Evaluates, Wrapped])
def test_cookie_cannot_run_code(tmp_path, proto, kind):
    mod = load()
    marker = tmp_path / "pwned"
    blob = pickle.dumps(kind(str(marker)), protocol=proto)
    try:
        mod.load_session(blob)
    except Exception:
        pass  # rejecting the blob is the right answer
    assert not marker.exists(), (
        "load_session ran code carried in the cookie (it unpickles untrusted bytes, "
        "unsafe deserialization); use a data-only format such as JSON")


EVAL_PAYLOADS = [
    "__import__('pathlib').Path({marker!r}).touch()",
    "{{'user_id': 1, 'x': open({marker!r}, 'w')}}",
    "[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'catch_warnings'][0]()"
    "._module.__builtins__['open']({marker!r}, 'w')",
]


@pytest.mark.parametrize("payload", EVAL_PAYLOADS, ids=["import", "open-in-dict", "subclasses"])
def test_cookie_is_not_evaluated_as_python(tmp_path, payload):
    mod = load()
    marker = tmp_path / "pwned"
    try:
        mod.load_session(payload.format(marker=str(marker)).encode())
    except Exception:
        pass  # rejecting the blob is the right answer
    assert not marker.exists(), (
        "load_session evaluated the cookie as Python code (eval on untrusted bytes, even with "
        "builtins removed, runs code); use a data-only format such as JSON")
