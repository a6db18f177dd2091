"""Tests for `core/runs.py`: how many runs each task of a grid gets, from `--runs` and task.toml's
`runs`, as the grid, run.json and `--resume` read it."""

from __future__ import annotations

import pytest

from pytest_ponybench.core.runs import Runs


def test_a_task_runs_its_own_number_unless_runs_was_given() -> None:
    declared = {"alpha": 5, "beta": None, "gamma": 3}
    own = Runs.of_tasks(declared, 3, given=False)
    assert (own.of("alpha"), own.of("beta"), own.of("gamma"), own.of("unknown")) == (5, 3, 3, 3)
    given = Runs.of_tasks(declared, 3, given=True)
    assert given.own == {} and given.of("alpha") == 3


def test_only_the_tasks_that_differ_are_kept_in_order() -> None:
    # A grid without any own number keeps the grid hash and run.json it always had.
    runs = Runs(2, {"zeta": 4, "alpha": 2, "mid": 1})
    assert list(runs.own.items()) == [("mid", 1), ("zeta", 4)]
    assert Runs(2, {"alpha": 2}) == Runs(2)


def test_a_resumes_selection_keeps_only_its_tasks_own_numbers() -> None:
    runs = Runs(2, {"a": 4, "b": 1})
    assert runs.only(["a", "c"]) == Runs(2, {"a": 4})
    assert runs.only([]) == Runs(2)


@pytest.mark.parametrize(
    ("runs", "most", "words"),
    [
        (Runs(2), 2, "2 runs"),
        (Runs(2, {"a": 5, "b": 1, "c": 5}), 5, "2 runs (tasks' own: 1, 5)"),
        (Runs(3, {"a": 1}), 3, "3 runs (tasks' own: 1)"),
    ],
)
def test_the_most_runs_and_the_words(runs: Runs, most: int, words: str) -> None:
    assert runs.most == most and runs.words() == words
