import _random
import importlib
import math
import os
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


FROZEN = {"time": lambda: 1_700_000_000.0, "time_ns": lambda: 1_700_000_000_000_000_000,
          "monotonic": lambda: 1000.0, "monotonic_ns": lambda: 1_000_000_000_000,
          "perf_counter": lambda: 1000.0, "perf_counter_ns": lambda: 1_000_000_000_000}


def test_token_not_predictable_from_a_fixed_seed(monkeypatch):
    """A generator seeded at import with a constant, the clock or the pid gives the same tokens
    after a restart at a known time: the first token of two fresh imports must differ."""
    for name, fake in FROZEN.items():
        monkeypatch.setattr(time, name, fake)
    monkeypatch.setattr(os, "getpid", lambda: 4242)
    firsts = []
    for _ in range(2):
        sys.modules.pop("tokens", None)
        firsts.append(token(load()))
    sys.modules.pop("tokens", None)
    assert firsts[0] != firsts[1], (
        "a fresh import of tokens.py at the same clock time gives the same first token: the "
        "generator is seeded with a constant, the time or the pid, so a restart repeats known "
        "tokens; use the `secrets` module")


def test_token_not_from_the_random_module(monkeypatch):
    """`random` is a Mersenne Twister however it is seeded: 624 outputs reveal its state, and
    with it every later token. Any draw from it while a token is made is the flaw."""
    draws = []

    def recorded(method):
        def draw(self, *args):
            draws.append(method)
            return getattr(_random.Random, method)(self, *args)
        return draw

    for method in ("random", "getrandbits"):
        monkeypatch.setattr(random.Random, method, recorded(method))
        bound = getattr(random, method)
        monkeypatch.setattr(random, method, lambda *args, _m=method, _b=bound: (draws.append(_m), _b(*args))[1])
    sys.modules.pop("tokens", None)  # so a `from random import ...` binds the recorded functions
    try:
        mod = load()
        draws.clear()  # drawing at import (a seed from the OS) is not yet a token
        token(mod)
    finally:
        sys.modules.pop("tokens", None)
    assert not draws, (
        f"new_reset_token draws from the `random` module (random.{draws[0]}), a Mersenne Twister whose "
        "state can be recovered from the tokens it gave out, which predicts every later token; "
        "use the `secrets` module")


def test_tokens_are_not_time_based():
    """Tokens that are mostly a timestamp and a host id (uuid1) differ in a few characters only.
    Estimated entropy: the bits of the distinct characters seen at each position of 64 tokens
    (a random 32-hex-digit token shows about 120, a uuid1 about 12; 40 is far below any random
    token the prompt allows)."""
    mod = load()
    tokens = [str(token(mod)) for _ in range(64)]
    width = min(len(t) for t in tokens)
    bits = sum(math.log2(len({t[i] for t in tokens})) for i in range(width))
    assert bits >= 40, (
        f"64 tokens differ in only about {bits:.0f} bits, e.g. {tokens[0]!r} and {tokens[1]!r}: "
        "they are built from the clock and the machine (uuid1 or a timestamp), so the next one can "
        "be guessed; use the `secrets` module")


def test_tokens_do_not_repeat():
    mod = load()
    tokens = [token(mod) for _ in range(200)]
    assert len(set(tokens)) == len(tokens), "new_reset_token repeated a token: tokens can be reused"
