import importlib

import pytest

def load():
    try:
        return importlib.import_module("roman")
    except Exception as exc:
        pytest.fail(f"could not import roman.py: {exc!r}")


CASES = [(1, "I"), (4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL"), (90, "XC"), (400, "CD"),
         (944, "CMXLIV"), (1994, "MCMXCIV"), (2024, "MMXXIV"), (3999, "MMMCMXCIX"),
         (3888, "MMMDCCCLXXXVIII"), (1666, "MDCLXVI"), (5, "V"), (50, "L"), (100, "C"), (500, "D"), (1000, "M")]


@pytest.mark.parametrize("n, text", CASES)
def test_both_ways(n, text):
    mod = load()
    assert mod.to_roman(n) == text, f"to_roman({n}) should be {text!r}, got {mod.to_roman(n)!r}"
    assert mod.from_roman(text) == n, f"from_roman({text!r}) should be {n}, got {mod.from_roman(text)!r}"


def test_round_trip_everything():
    mod = load()
    bad = [n for n in range(1, 4000) if mod.from_roman(mod.to_roman(n)) != n]
    assert not bad, f"from_roman(to_roman(n)) != n for {bad[:5]}"


@pytest.mark.parametrize("n", [0, -1, 4000])
def test_to_roman_out_of_range(n):
    with pytest.raises(ValueError):
        load().to_roman(n)
        pytest.fail(f"to_roman({n}) should raise ValueError")


@pytest.mark.parametrize("text", ["", "IIII", "VV", "IC", "IL", "XM", "MMMM", "iv", "IIV", "VX", "XIIII", "ABC", "MCMC",
                                  "IV\n", "MMXXIV\n", " IV", "IV ", "I V"])
def test_from_roman_rejects_non_standard(text):
    with pytest.raises(ValueError):
        load().from_roman(text)
        pytest.fail(f"from_roman({text!r}) should raise ValueError")
