"""Tests for `analysis/stats/cells.py`: records into each arm's cells."""

from __future__ import annotations

from pytest_ponybench.analysis.stats.cells import collect
from tests.unit._support.records import rec


def test_the_latest_valid_attempt_counts_and_invalid_cells_are_counted_per_task() -> None:
    records = [
        rec("t1", "a", correct=False),
        rec("t1", "a", correct=True),  # a retry of the same cell: the later valid attempt counts
        rec("t1", "a", run=1, valid=False),
        rec("t2", "a"),
        rec("t2", "a", valid=False),  # an invalid attempt after a valid one does not replace it
        rec("t3", "a", scored=False),  # an open task: nothing to check, left out
    ]
    (model,) = collect(records).values()
    cells = model["a"]
    assert (cells.cells, cells.invalid) == (3, 1)
    assert cells.cells_by_task == {"t1": 2, "t2": 1}
    assert cells.invalid_by_task == {"t1": 1}
    assert cells.tasks == {"t1", "t2"}
    assert cells.values["pass"] == {"t1": [1.0], "t2": [1.0]}
    assert "score" not in cells.values


def test_missing_values_and_numbers_that_are_not_measurements_are_counted() -> None:
    records = [
        rec("t1", "a", correct=None),  # unscored: left out of the rates (never a failure), counted
        rec("t2", "a", cost_usd=-1.0),  # not a measurement
        rec("t3", "a", total_loc=0),  # wrote no code: missing, not bad
        rec("t4", "a", score=0.5),
    ]
    cells = collect(records, has_score=True)["m"]["a"]
    assert cells.values["pass"] == {"t2": [1.0], "t3": [1.0], "t4": [1.0]}
    assert cells.missing["pass"] == 1 and cells.missing["correct"] == 1 and cells.unscored == 1
    assert cells.missing_by_task["pass"] == {"t1": 1} and cells.gaps("pass") == {"t1": 1}
    assert cells.missing["cost_usd"] == 1 and cells.bad == {"cost_usd": {"negative": 1}}
    assert cells.missing["total_loc"] == 1 and "t3" not in cells.values["total_loc"]
    assert cells.values["score"] == {"t4": [0.5]} and cells.missing["score"] == 3


def test_hashes_skills_and_the_audit_come_from_valid_cells() -> None:
    records = [
        rec("t1", "a", arm_hash="h1", skills_available=["s1", "s2"], skills_used=["s1", "other"]),
        rec("t2", "a", arm_hash="h1", outside_reads=["/etc/hostname"]),
        rec("t3", "a", arm_hash="h1", valid=False, skills_available=["s3"], outside_writes=["/x"]),
    ]
    cells = collect(records)["m"]["a"]
    assert cells.hashes == {"h1"}
    assert cells.skills_available == {"s1", "s2"} and cells.skills_used == {"s1"}
    assert cells.skill_cells == 1
    assert cells.outside == 1
