import importlib
import random
import time

import pytest


def load():
    try:
        return importlib.import_module("tokens")
    except Exception as exc:
        pytest.fail(f"could not import tokens.py: {exc!r}")


def test_token_not_predictable_from_random_seed():
    mod = load()
    tokens = []
    for _ in range(2):
        random.seed(1234)
        tokens.append(mod.new_reset_token())
    assert tokens[0] != tokens[1], (
        "new_reset_token gives the same token after random.seed(1234): it is made with the "
        "predictable `random` module; use the `secrets` module for security tokens")


def test_token_not_derived_from_the_clock(monkeypatch):
    mod = load()
    monkeypatch.setattr(time, "time", lambda: 1_700_000_000.0)
    monkeypatch.setattr(time, "time_ns", lambda: 1_700_000_000_000_000_000)
    tokens = []
    for _ in range(2):
        random.seed(99)
        tokens.append(mod.new_reset_token())
    assert tokens[0] != tokens[1], (
        "with the clock frozen, new_reset_token returned the same token twice: it is derived "
        "from the time and guessable; use the `secrets` module")
