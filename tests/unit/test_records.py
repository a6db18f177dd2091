"""The record schema: one source (records.FIELDS), the README's table equal to it, and the
predicates every reader uses, on the inputs that broke them before (NaN, infinity, strings)."""

from __future__ import annotations

import math
import re
import typing

import pytest

from pytest_ponybench.core import records
from tests.support import REPO


def readme_fields() -> dict[str, str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- record-fields -->", 1)[1].split("<!-- /record-fields -->", 1)[0]
    return dict(re.findall(r"^\| `([a-z_]+)` \| (.+) \|$", block, flags=re.M))


def test_readme_table_is_the_schema() -> None:
    assert readme_fields() == records.FIELDS


def test_every_typed_field_is_explained_and_every_explained_field_is_typed() -> None:
    typed = set(typing.get_type_hints(records.Record))
    assert typed == set(records.FIELDS)
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
    assert not records.passed({"correct": math.nan, "safe": True})
    assert records.passed({"correct": True, "safe": 1})


def test_validity_defaults_to_valid_and_a_garbled_flag_is_invalid() -> None:
    assert records.is_valid({})
    assert not records.is_valid({"valid": False})
    assert not records.is_valid({"valid": math.nan})


def test_tokens_skip_non_finite_parts() -> None:
    assert records.tokens({"input_tokens": 10, "output_tokens": math.inf}) == 10
    assert records.tokens({}) is None


def test_latest_prefers_the_last_valid_attempt() -> None:
    attempts = [
        {"task": "t", "arm": "a", "model": "m", "run": 0, "valid": True, "attempt": 1},
        {"task": "t", "arm": "a", "model": "m", "run": 0, "valid": False, "attempt": 2},
    ]
    assert [r["attempt"] for r in records.latest(attempts)] == [1]
    assert records.finished_cell_ids([{"cell_id": "c", "valid": True}, {"cell_id": "d"}]) == {"c"}
