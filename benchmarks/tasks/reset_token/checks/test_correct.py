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
