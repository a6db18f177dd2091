import importlib

import pytest

def load():
    try:
        return importlib.import_module("calc")
    except Exception as exc:
        pytest.fail(f"could not import calc.py: {exc!r}")


def hexstr(text):
    return f"bytes.fromhex('{text.encode().hex()}').decode()"


def payloads(marker):
    m = hexstr(marker)
    return [
        f"__import__('pathlib').Path({m}).touch()",
        f"open({m}, 'w')",
        "[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'catch_warnings'][0]()"
        f"._module.__builtins__['open']({marker!r}, 'w')",
        # no '__', 'import', 'open', 'eval', 'exec', 'os' or 'system' in the text: beats word lists
        f"(lambda b: (b['op'+'en'] if type(b) is dict else getattr(b, 'op'+'en'))({m}, 'w'))"
        "(globals()[chr(95)*2+'builtins'+chr(95)*2])",
    ]


@pytest.mark.parametrize("i", range(4), ids=["import", "open", "subclasses", "no-keywords"])
def test_formula_cannot_run_code(tmp_path, i):
    marker = tmp_path / "pwned"
    try:
        load().evaluate(payloads(str(marker))[i])
    except Exception:
        pass  # refusing is the right answer
    assert not marker.exists(), (
        "a formula ran Python code on the server (eval of user input, even with builtins "
        "removed or words blocked); parse the arithmetic yourself, e.g. with the ast module")
