"""Tests for `core/names.py`: what a task id, an arm name and a model name must be to make a cell
id that is a folder's name and never a path."""

from __future__ import annotations

import pytest

from pytest_ponybench.core.names import MAX_MODEL_CHARS, MAX_NAME_CHARS, model_problem, name_problem


@pytest.mark.parametrize("name", ["merge_intervals", "a", "x" * MAX_NAME_CHARS, ".hidden", "a..b"])
def test_names_that_can_be_part_of_a_cell_id(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize("name", ["", ".", "..", "...."])
def test_a_name_of_dots_only_is_refused_as_a_folder(name: str) -> None:
    problem = name_problem(name)
    assert problem is not None and "is not a name ('.' and '..' name folders)" in problem


def test_a_name_over_its_limit_is_quoted_cut_with_its_length_and_the_limit() -> None:
    # The name is quoted as an excerpt: a huge name never fills the message.
    assert name_problem("x" * 65) == f"'{'x' * 59}... is 65 characters long (at most 64)"
    assert name_problem("y" * 10, limit=9) == "'yyyyyyyyyy' is 10 characters long (at most 9)"
    assert name_problem("y" * 9, limit=9) is None


@pytest.mark.parametrize(
    "model", ["sonnet", "claude-sonnet-4-5", "offline-reference", "us.anthropic.claude-opus-4-1:0"]
)
def test_model_names_of_the_grid(model: str) -> None:
    assert model_problem(model) is None


@pytest.mark.parametrize("model", ["a/b", "a\\b", "two words", "tab\there", "nl\n", "nul\x00", "del\x7f"])
def test_a_model_that_could_be_a_path_or_break_a_line_is_refused(model: str) -> None:
    problem = model_problem(model)
    assert problem is not None and "holds a '/', a backslash, a space or a control character" in problem


def test_a_model_is_held_to_its_own_longer_limit_and_the_dots_rule() -> None:
    assert model_problem("m" * MAX_MODEL_CHARS) is None
    long = model_problem("m" * (MAX_MODEL_CHARS + 1))
    assert long is not None and long.endswith(f"(at most {MAX_MODEL_CHARS})")
    assert MAX_MODEL_CHARS > MAX_NAME_CHARS
    dots = model_problem("..")
    assert dots is not None and "is not a name" in dots
