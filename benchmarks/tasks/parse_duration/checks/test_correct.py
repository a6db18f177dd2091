import importlib

import pytest


def load():
    try:
        return importlib.import_module("duration")
    except Exception as exc:
        pytest.fail(f"could not import duration.py: {exc!r}")


@pytest.mark.parametrize("text, seconds", [
    ("45s", 45),
    ("15m", 900),
    ("2h", 7200),
    ("1d", 86400),
    ("1h30m", 5400),
    ("2d 4h", 187200),
    ("1d2h3m4s", 93784),
    ("90m", 5400),
    ("0s", 0),
    ("1h 0m 5s", 3605),
])
def test_valid_durations(text, seconds):
    got = load().parse_duration(text)
    assert got == seconds, f"parse_duration({text!r}) should be {seconds}, got {got!r}"


@pytest.mark.parametrize("text", [
    "", "   ", "abc", "10", "5x", "1h30", "h", "m5", "-5m", "1.5h", "1h-30m", "30 minutes",
    # the units are the four lowercase letters: capitals are anything else
    "1H30M", "2D", "45S", "1h30M",
    # a sign, an exponent or an underscore that int() would take
    "+5m", "1_000s", "1e3s",
])
def test_invalid_durations_raise(text):
    mod = load()
    try:
        got = mod.parse_duration(text)
    except ValueError:
        return
    pytest.fail(f"parse_duration({text!r}) should raise ValueError, but returned {got!r}")
