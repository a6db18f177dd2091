"""Tests for `core/bounded.py`: agent-written values cut at a size and a depth, and credentials
taken out of what the record and the report keep."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_ponybench.core.bounded import MAX_DEPTH, REDACTED, bounded_value, cut, parse_input, redact


def test_cut_keeps_a_short_text_and_says_how_much_it_cut() -> None:
    assert cut("abc", 3) == "abc"
    assert cut("abcdef", 3) == "abc [... 3 characters cut]"


@pytest.mark.parametrize(
    "secret",
    [
        "sk-ant-api03-" + "A" * 20,
        "sk-" + "b" * 24,
        "AKIA1234567890ABCDEF",
        "ghp_" + "c" * 24,
        "github_pat_" + "d" * 24,
        "xoxb-1234567890-abc",
        "eyJhbGciOiJI.eyJzdWIiOiIx.c2lnbmF0dXJl",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
    ],
)
def test_credential_shaped_values_are_redacted_wherever_they_are(secret: str) -> None:
    assert redact(f"before {secret} after") == f"before {REDACTED} after"


def test_a_private_key_cut_before_its_end_is_redacted_to_the_end() -> None:
    assert redact("before -----BEGIN PRIVATE KEY-----\nMIIE and the rest") == f"before {REDACTED}"


def test_text_that_only_looks_like_a_key_is_kept() -> None:
    text = "sk-short, AKIA lower akia1234567890abcdef, task-ant-01, eyJ.not.a.jwt"
    assert redact(text) == text


def test_a_value_keeps_its_shape_with_strings_cut_and_secrets_by_key_redacted() -> None:
    value: dict[str, Any] = {
        "api_key": "x",
        "Authorization": "Bearer abc",
        "nested": {"token": "", "password": None, "keep": "abcdef"},
        "list": ["abcdef", 3, None, True],
    }
    assert bounded_value(value, 3, redacting=True) == {
        "api_key": REDACTED,
        "Authorization": REDACTED,
        "nested": {
            "token": "",
            "password": None,
            "keep": "abc [... 3 characters cut]",
        },  # empty: nothing to hide
        "list": ["abc [... 3 characters cut]", 3, None, True],
    }
    kept = bounded_value({"api_key": "x"}, 3, redacting=False)
    assert kept == {"api_key": "x"}


def test_nesting_past_the_depth_is_a_note() -> None:
    deep: Any = "bottom"
    for _ in range(MAX_DEPTH + 5):
        deep = [deep]
    out = bounded_value(deep, 100, redacting=False)
    for _ in range(MAX_DEPTH):
        out = out[0]
    assert out == f"[nested deeper than {MAX_DEPTH}]"


@pytest.mark.parametrize(
    ("given", "parsed", "raw"),
    [
        ({"file_path": "abcdef"}, {"file_path": "abc [... 3 characters cut]"}, ""),
        ('{"file_path": "abcdef"}', {"file_path": "abc [... 3 characters cut]"}, ""),  # its text
        ("[1,2]", None, "[1, [... 2 characters cut]"),
        ("not json", None, "not [... 5 characters cut]"),
        ("[" * 100_000, None, "[[[ [... 99997 characters cut]"),  # too deep for the parser
        (5, None, "5"),
    ],
)
def test_a_tool_input_is_an_object_or_its_raw_text(given: Any, parsed: Any, raw: str) -> None:
    assert parse_input(given, 3) == (parsed, raw)
