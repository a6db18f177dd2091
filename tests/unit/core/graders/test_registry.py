"""The grader registry: a type registered in a test (no package file touched) is parsed from a
real task folder, checked key by key like the built-in ones, graded, and gone once the test ends."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.core.graders import deterministic, model_graded, registry
from pytest_ponybench.core.graders.cell import combine_axes, grade_cell
from pytest_ponybench.core.graders.evidence import CellEvidence
from pytest_ponybench.core.graders.outcome import (
    JUDGE_TYPES,
    TYPES,
    Common,
    GradeContext,
    Grader,
    GraderOutcome,
)
from pytest_ponybench.core.graders.registry import GraderType
from pytest_ponybench.core.graders.table import Table
from pytest_ponybench.core.tasks import TaskError, load_task

BUILT_IN = (
    "regex",
    "tool_used",
    "tool_order",
    "tool_absent",
    "file_exists",
    "file_absent",
    "files_unchanged",
    "llm",
    "llm_reference",
)


@dataclass(frozen=True, kw_only=True)
class WordCount(Common):
    """A toy type: the reply says `word` at least `at_least` times."""

    type: str = field(default="word_count", init=False)
    word: str
    at_least: int = 1

    def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
        n = evidence.reply.split().count(self.word)
        return self.outcome(n >= self.at_least, f"{self.word!r} said {n} time(s), {self.at_least} needed")


def parse_word_count(t: Table, common: dict[str, Any], root: Path) -> Grader | None:
    word = t.text("word", required=True)
    at_least = t.count("at_least")
    if word is None:
        return None
    return WordCount(word=word, at_least=1 if at_least is None else at_least, **common)


WORD_COUNT = GraderType("word_count", ("word", "at_least"), parse_word_count)


def task(tmp_path: Path, graders: str) -> Path:
    folder = tmp_path / "t"
    for sub in ("good", "bad", "checks", "seed"):
        (folder / sub).mkdir(parents=True)
    (folder / "task.toml").write_text('kind = "surgical"\nfile = "mod.py"\naxis = "correct"\n' + graders)
    (folder / "prompt.md").write_text("Write add(a, b).\n")
    (folder / "seed" / "README.md").write_text("seed\n")
    (folder / "good" / "mod.py").write_text("def add(a, b):\n    return a + b\n")
    (folder / "bad" / "mod.py").write_text("def add(a, b):\n    return a - b\n")
    (folder / "checks" / "test_correct.py").write_text("def test_x():\n    pass\n")
    return folder


TOY = (
    '\n[[graders]]\nname = "says_done"\ntype = "word_count"\naxis = "correct"\nword = "done"\nat_least = 2\n'
)


def test_the_built_in_types_are_listed_in_order_and_each_parses_its_own_type() -> None:
    assert tuple(TYPES) == BUILT_IN
    assert tuple(JUDGE_TYPES) == ("llm", "llm_reference")
    assert [t.name for t in deterministic.GRADER_TYPES + model_graded.GRADER_TYPES] == list(BUILT_IN)


def test_a_type_registered_in_a_test_parses_from_task_toml_and_grades(tmp_path: Path) -> None:
    folder = task(tmp_path, TOY)
    with pytest.raises(TaskError, match="expected one of regex, .*llm_reference$"):
        load_task(folder)  # not registered: the type error lists the built-in types only
    with registry.registered(WORD_COUNT):
        assert "word_count" in TYPES and "word_count" not in JUDGE_TYPES
        loaded = load_task(folder)
        (grader,) = loaded.graders
        assert isinstance(grader, WordCount) and (grader.word, grader.at_least, grader.axis) == (
            "done",
            2,
            "correct",
        )
        said_twice = grade_cell(loaded, CellEvidence(reply="done and done"))
        said_once = grade_cell(loaded, CellEvidence(reply="done once"))
    assert [o.passed for o in said_twice] == [True]
    assert said_once[0].passed is False and said_once[0].explanation == "'done' said 1 time(s), 2 needed"
    axes = combine_axes(True, True, said_once)
    assert (axes.correct, axes.safe) == (False, True)
    assert axes.reason == "incorrect: grader says_done (word_count) failed: 'done' said 1 time(s), 2 needed"
    assert "word_count" not in TYPES  # gone with the with block
    with pytest.raises(TaskError):
        load_task(folder)


def test_a_registered_type_s_keys_are_checked_like_a_built_in_one(tmp_path: Path) -> None:
    bad = TOY.replace('word = "done"\n', 'word = ""\ncolour = "red"\n')
    folder = task(tmp_path, bad)
    with registry.registered(WORD_COUNT), pytest.raises(TaskError) as info:
        load_task(folder)
    where = "task.toml: [[graders]] #1 'says_done': key"
    assert (
        f"{folder}: {where} 'colour' is not a key of a word_count grader "
        "(known: arm, at_least, axis, name, turn, type, weight, word)" in info.value.problems
    )
    assert f"{folder}: {where} 'word' must be a non-empty string, not ''" in info.value.problems


def test_a_judge_type_counts_as_judged_and_a_taken_name_is_refused() -> None:
    judged = GraderType("toy_judge", (), parse_word_count, judge=True)
    with registry.registered(judged):
        assert "toy_judge" in JUDGE_TYPES and JUDGE_TYPES[-1] == "toy_judge"
        with pytest.raises(ValueError, match="'toy_judge' is already registered"):
            registry.register(judged)
    with pytest.raises(ValueError, match="'regex' is already registered"):
        registry.register(GraderType("regex", (), parse_word_count))
    assert "toy_judge" not in JUDGE_TYPES and len(JUDGE_TYPES) == 2
