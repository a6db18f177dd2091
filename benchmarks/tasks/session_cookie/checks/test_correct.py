import importlib

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


def load():
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


@pytest.mark.parametrize("blob", [b"", b"not a session", b"\xff\xfe\x00garbage"])
def test_garbage_raises_value_error(blob):
    mod = load()
    with pytest.raises(ValueError):
        mod.load_session(blob)
        pytest.fail(f"load_session({blob!r}) should raise ValueError for a blob that is not a session")
