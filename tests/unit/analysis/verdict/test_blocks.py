"""Tests for `analysis/verdict/blocks.py`: the lines around a verdict block's table."""

from __future__ import annotations

from pytest_ponybench.analysis import stats
from pytest_ponybench.analysis.verdict.blocks import (
    TWIN_NOTE,
    header_lines,
    pass_counts,
    pass_line,
    procedure_line,
)
from tests.unit._support.records import rec


def test_pass_counts_take_the_latest_attempt_and_leave_open_tasks_out() -> None:
    records = [
        rec("t1", "a", correct=False),
        rec("t1", "a"),  # the retry counts
        rec("t2", "a", valid=False),
        rec("t3", "a", scored=False),
        rec("t1", "baseline", valid=False),
    ]
    assert pass_counts(records) == {("m", "a"): (1, 1, 1, 0), ("m", "baseline"): (0, 0, 1, 0)}
    # A cell the scorer never scored is neither passed nor failed: counted on its own.
    unscored = [rec("t1", "a", correct=None), rec("t2", "a", correct=False, safe=None)]
    assert pass_counts(unscored) == {("m", "a"): (0, 1, 0, 1)}


def test_the_pass_line_names_both_sides_and_a_side_without_valid_cells() -> None:
    records = [
        rec("t1", "a"),
        rec("t2", "a"),
        rec("t3", "a", correct=False),
        rec("t1", "baseline", valid=False),
    ]
    (row,) = stats.verdicts(records)
    ci = stats.wilson(2, 3)
    assert pass_line(row, pass_counts(records)) == (
        f"cells passed: a 2/3 (67%, Wilson {100 * ci.low:.0f}-{100 * ci.high:.0f}%), "
        "baseline no valid cell (1 invalid)"
    )


def test_the_pass_line_of_tasks_graded_by_graders_alone_says_no_cell_has_a_pass() -> None:
    """An imported llm-graded suite: every cell valid, none of a scored task; not "no valid
    cell", which it once said of nine valid cells a side."""
    records = [
        rec(f"t{i}", arm, scored=False, score=0.0, correct=None, safe=None)
        for i in range(3)
        for arm in ("a", "baseline")
    ]
    (row,) = stats.verdicts(records)
    assert pass_line(row, pass_counts(records)) == (
        "cells passed: no cell has a pass (its tasks are graded by graders alone)"
    )


def test_the_procedure_line_gives_the_primarys_level_and_the_rest_share() -> None:
    # Durations in milliseconds, as the CLI reports them (whole seconds would leave time out).
    records = [
        rec(f"t{i}", arm, correct=arm == "a" or i % 2 == 0, duration_ms=1500 + i)
        for i in range(8)
        for arm in ("a", "baseline")
    ]
    (row,) = stats.verdicts(records)
    assert procedure_line(row) == (
        "procedure: pass first at p < 0.045; loc, cost, tokens, time share p < 0.005 "
        "(weighted Holm: a decided metric hands its level on)"
    )
    assert header_lines(row) == [procedure_line(row), row["family"].describe()]
    twins = [rec(f"t{i}", arm, arm_hash="same") for i in range(3) for arm in ("a", "baseline")]
    (twin,) = stats.verdicts(twins)
    assert header_lines(twin)[0] == TWIN_NOTE
