import importlib
import pickle

import pytest


def load():
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
