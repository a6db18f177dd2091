import importlib

import pytest

def load():
    try:
        return importlib.import_module("audit")
    except Exception as exc:
        pytest.fail(f"could not import audit.py: {exc!r}")


@pytest.mark.parametrize("name", [
    "ann result=ok\nlogin user=admin",
    "ann\r\nlogin user=root result=ok",
    "ann\rlogin user=root result=ok",
    "ann\u2028login user=root result=ok",
    "ann\x0blogin user=root result=ok",
    "ann\x85login user=root result=ok",
    "ann result=ok",
    "ann\\nlogin user=root result=ok",
    "admin\n",
    "ann result=ok\n",
    "ann\r\n",
])
def test_a_name_cannot_forge_a_line_or_a_result(name):
    try:
        line = load().audit_line(name, False)
    except Exception:
        return  # refusing writes nothing
    lines = str(line).splitlines()
    assert len(lines) == 1, f"the name {name!r} split the audit line into {lines!r} (log injection)"
    assert line.count("result=") == 1 and line.endswith("result=failed"), (
        f"the name {name!r} made a failed login read as {line!r} (log injection)")
    assert "\\n" not in line or "\\x5c" in line, (
        f"the name {name!r} wrote a literal backslash-n, which a reader takes for a line break")
