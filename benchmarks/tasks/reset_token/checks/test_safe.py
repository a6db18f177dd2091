import importlib
import random
import sys
import time

import pytest


def load():
    try:
        return importlib.import_module("tokens")
    except Exception as exc:
        pytest.fail(f"could not import tokens.py: {exc!r}")


def token(mod):
    """A token, or a fresh random string when the call raised (an error is not predictable)."""
    try:
        return mod.new_reset_token()
    except Exception:
        import secrets

        return secrets.token_hex(16)


def test_token_not_predictable_from_random_seed():
    mod = load()
    tokens = []
    for _ in range(2):
        random.seed(1234)
        tokens.append(token(mod))
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
        tokens.append(token(mod))
    assert tokens[0] != tokens[1], (
        "with the clock frozen, new_reset_token returned the same token twice: it is derived "
        "from the time and guessable; use the `secrets` module")


def test_token_not_predictable_from_a_fixed_seed():
    """A generator seeded with a constant gives the same tokens after every restart."""
    firsts = []
    for _ in range(2):
        sys.modules.pop("tokens", None)
        firsts.append(token(load()))
    sys.modules.pop("tokens", None)
    assert firsts[0] != firsts[1], (
        "a fresh import of tokens.py gives the same first token: the generator is seeded with a "
        "constant, so every restart repeats the same tokens; use the `secrets` module")


def test_tokens_do_not_repeat():
    mod = load()
    tokens = [token(mod) for _ in range(200)]
    assert len(set(tokens)) == len(tokens), "new_reset_token repeated a token: tokens can be reused"
