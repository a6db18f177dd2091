import importlib
import re

import pytest


def load():
    try:
        return importlib.import_module("tokens")
    except Exception as exc:
        pytest.fail(f"could not import tokens.py: {exc!r}")


def test_token_shape():
    token = load().new_reset_token()
    assert isinstance(token, str), f"new_reset_token should return a str, got {type(token).__name__}"
    assert len(token) >= 32, f"the token should be at least 32 characters, got {len(token)}: {token!r}"
    assert re.fullmatch(r"[A-Za-z0-9_-]+", token), (
        f"the token should contain only letters, digits, '-' and '_', got {token!r}")


def test_every_token_has_the_shape():
    """One token may miss a character an encoding gives now and then ('+' and '/' of standard
    base64 come in about one token in five): many tokens, each held to the shape."""
    mod = load()
    for _ in range(200):
        token = mod.new_reset_token()
        assert isinstance(token, str) and len(token) >= 32, f"every token should be a str of at least 32 characters, got {token!r}"
        assert re.fullmatch(r"[A-Za-z0-9_-]+", token), (
            f"every token should contain only letters, digits, '-' and '_', got {token!r}")
