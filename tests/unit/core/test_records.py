"""The record schema: one source (records.FIELDS), docs/results.md's table equal to it, and the
predicates every reader uses, on the inputs that broke them before (NaN, infinity, strings)."""

from __future__ import annotations

import math
import re
import typing

import pytest

from pytest_ponybench.core import records
from pytest_ponybench.store import spend
from tests.support import REPO


def readme_fields() -> dict[str, str]:
    text = (REPO / "docs" / "results.md").read_text(encoding="utf-8")
    block = text.split("<!-- record-fields -->", 1)[1].split("<!-- /record-fields -->", 1)[0]
    return dict(re.findall(r"^\| `([a-z_]+)` \| (.+) \|$", block, flags=re.M))


def test_readme_table_is_the_schema() -> None:
    assert readme_fields() == records.FIELDS


def test_every_typed_field_is_explained_and_every_explained_field_is_typed() -> None:
    typed = set(typing.get_type_hints(records.Record))
    assert typed == set(records.FIELDS) | set(records.DERIVED)
    assert all(text.endswith(".") and len(text) > 10 for text in records.FIELDS.values())


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "3", None, True, [1]])
def test_number_refuses_what_is_not_a_finite_measurement(value: object) -> None:
    assert records.number(value) is None


def test_number_keeps_ints_and_floats() -> None:
    assert records.number(3) == 3.0 and records.number(0.25) == 0.25


@pytest.mark.parametrize("value", [math.nan, "true", 2, None, 0.5])
def test_a_flag_that_is_not_a_bool_is_missing(value: object) -> None:
    assert records.flag(value) is None


def test_correct_nan_never_counts_as_passed() -> None:
    assert not records.passed(records.loaded({"correct": math.nan, "safe": True}))
    assert records.passed(records.loaded({"correct": True, "safe": 1}))


def test_validity_defaults_to_valid_and_a_garbled_flag_is_invalid() -> None:
    assert records.is_valid({})
    assert not records.is_valid({"valid": False})
    assert not records.is_valid(records.loaded({"valid": math.nan}))


def test_tokens_skip_non_finite_parts() -> None:
    assert records.tokens(records.loaded({"input_tokens": 10, "output_tokens": math.inf})) == 10
    assert records.tokens({}) is None


def test_latest_prefers_the_last_valid_attempt() -> None:
    attempts: list[records.Record] = [
        {"task": "t", "arm": "a", "model": "m", "run": 0, "valid": True, "attempt": 1},
        {"task": "t", "arm": "a", "model": "m", "run": 0, "valid": False, "attempt": 2},
    ]
    assert [r["attempt"] for r in records.latest(attempts)] == [1]
    assert records.finished_cell_ids([{"cell_id": "c", "valid": True}, {"cell_id": "d"}]) == {"c"}


@pytest.mark.parametrize(
    ("fields", "kind", "retried"),
    [
        ({"valid": True}, None, False),
        (
            {"valid": False, "error_kind": "api", "error": "API error 529: overloaded"},
            records.ErrorKind.API,
            True,
        ),
        (
            {"valid": False, "error_kind": "start", "error": "claude could not start"},
            records.ErrorKind.START,
            False,
        ),
        ({"valid": False, "error_kind": "arm", "error": "anything"}, records.ErrorKind.ARM, False),
        (
            {"valid": False, "error_kind": "harness", "error": "API error 500"},
            records.ErrorKind.HARNESS,
            False,
        ),
        # The kind decides, not the words: an API-looking message of a harness fault is not retried.
        ({"valid": False, "error_kind": "changed"}, records.ErrorKind.CHANGED, False),
        ({"valid": False, "error_kind": "interrupted"}, records.ErrorKind.INTERRUPTED, False),
        # Records of older versions carry no kind: read from the error's first words.
        ({"valid": False, "error": "harness error: OSError: disk full"}, records.ErrorKind.HARNESS, False),
        ({"valid": False, "error": "claude could not start: no such file"}, records.ErrorKind.START, False),
        (
            {"valid": False, "error": "interrupted before the cell finished"},
            records.ErrorKind.INTERRUPTED,
            False,
        ),
        ({"valid": False, "error": "the agent changed the harness: x"}, records.ErrorKind.CHANGED, False),
        ({"valid": False, "error": "rescore failed: boom"}, records.ErrorKind.RESCORE, False),
        ({"valid": False, "error": "API error 429: slow down"}, records.ErrorKind.API, True),
        # An unknown kind (a newer version, an edit) is read by its words, never a crash.
        (
            {"valid": False, "error_kind": "cosmic rays", "error": "harness error: x"},
            records.ErrorKind.HARNESS,
            False,
        ),
    ],
)
def test_error_kind_decides_the_retry(
    fields: dict[str, object], kind: records.ErrorKind | None, retried: bool
) -> None:
    rec = records.loaded(fields)
    assert records.error_kind(rec) is kind
    assert spend.retryable(rec) is retried


def test_a_cell_error_is_an_invalid_record_with_its_kind() -> None:
    err = records.CellError(records.ErrorKind.START, "claude could not start: ENOENT")
    assert err.as_record() == {
        "valid": False,
        "error": "claude could not start: ENOENT",
        "error_kind": "start",
    }
    assert "error_kind" in records.FIELDS
