import importlib

import pytest

def load():
    try:
        return importlib.import_module("audit")
    except Exception as exc:
        pytest.fail(f"could not import audit.py: {exc!r}")


@pytest.mark.parametrize("name, ok, line", [
    ("ann", True, "login user=ann result=ok"),
    ("bo.b-r_2@corp", False, "login user=bo.b-r_2@corp result=failed"),
    ("ann smith", True, "login user=ann\\x20smith result=ok"),
    ("a\\b", False, "login user=a\\x5cb result=failed"),
    ("zoë", True, "login user=zo\\xeb result=ok"),
    ("名", True, "login user=\\u540d result=ok"),
    ("", False, "login user= result=failed"),
    ("\xff", True, "login user=\\xff result=ok"),
    ("\u0100", True, "login user=\\u0100 result=ok"),
    ("\uffff", True, "login user=\\uffff result=ok"),
    ("\U00010000", True, "login user=\\U00010000 result=ok"),
    ("ann\n", False, "login user=ann\\x0a result=failed"),
    ("Ännchen", True, "login user=\\xc4nnchen result=ok"),
    ("٣", True, "login user=\\u0663 result=ok"),
])
def test_lines(name, ok, line):
    got = load().audit_line(name, ok)
    assert got == line, f"audit_line({name!r}, {ok}) should be {line!r}, got {got!r}"
