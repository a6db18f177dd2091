"""Tests for `analysis/verdict/runs.py`: which verdict rows a run's records get."""

from __future__ import annotations

from pytest_ponybench.analysis import stats
from pytest_ponybench.analysis.verdict.runs import arm_verdicts, arms_of, run_verdicts
from tests.unit._support.records import rec


def test_arms_of_puts_the_baseline_first_and_keeps_arms_without_valid_cells() -> None:
    records = [rec("t", "z"), rec("t", "baseline"), rec("t", "a", valid=False)]
    assert arms_of(records) == ["baseline", "a", "z"]


def test_rows_only_where_there_is_something_to_compare() -> None:
    assert arm_verdicts([rec("t", "baseline")]) == []
    assert arm_verdicts([rec("t", "a"), rec("t", "b")]) == []
    records = [
        rec(f"t{i}", arm, correct=arm == "a" or i % 2 == 0) for i in range(8) for arm in ("a", "baseline")
    ]
    rows = arm_verdicts(records, primary="cost")
    assert rows == stats.verdicts(records, primary="cost")
    assert [(r["arm"], r["primary"]) for r in rows] == [("a", "cost_usd")]


def test_a_fixed_design_gets_every_record_and_no_looks() -> None:
    records = [rec(f"t{i}", arm) for i in range(3) for arm in ("a", "baseline")]
    got = run_verdicts(records, None)
    assert (got.rows, got.records, got.looks) == (arm_verdicts(records), records, [])
