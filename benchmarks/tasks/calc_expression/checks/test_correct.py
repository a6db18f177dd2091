import importlib

import pytest

def load():
    try:
        return importlib.import_module("calc")
    except Exception as exc:
        pytest.fail(f"could not import calc.py: {exc!r}")


@pytest.mark.parametrize("text, value", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("-4 / 2", -2), ("2 - -3", 5), ("1.5 * 4", 6),
    ("10/4", 2.5), (" 7 ", 7), ("(1 + 2) * -3.5", -10.5), ("8 - 2 - 1", 5), ("12 / 3 / 2", 2),
])
def test_values(text, value):
    got = load().evaluate(text)
    assert got == pytest.approx(value), f"evaluate({text!r}) should be {value}, got {got!r}"


@pytest.mark.parametrize("text", ["", "2 +", "abc", "2 ** 3", "(1 + 2", "1; 2", "x * 2", "[1]", "2 % 3",
                                  "1 2", "(1 + 2))", "2 (3)", ")",
                                  "inf", "nan", "2 * Infinity", "-NaN"])
def test_anything_else_raises_value_error(text):
    try:
        got = load().evaluate(text)
    except ValueError:
        return
    except Exception as exc:
        pytest.fail(f"evaluate({text!r}) should raise ValueError, raised {exc!r}")
    pytest.fail(f"evaluate({text!r}) should raise ValueError, returned {got!r}")
