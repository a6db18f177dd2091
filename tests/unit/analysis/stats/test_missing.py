"""Tests for `analysis/stats/missing.py`: what was left out, in words, and the bound on invalid
cells (end to end through the verdicts in test_missing_bound.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pytest_ponybench.analysis.stats.cells import ArmCells, collect
from pytest_ponybench.analysis.stats.effects import Effect
from pytest_ponybench.analysis.stats.missing import Bound, bound, bounded, notes
from pytest_ponybench.core.records import Record
from tests.unit._support.records import rec


def arms(*records: Record) -> tuple[ArmCells, ArmCells]:
    table = collect(records)["m"]
    return table.get("a", ArmCells()), table.get("baseline", ArmCells())


def test_notes_name_a_side_without_valid_cells_and_an_invalid_gap() -> None:
    mine, base = arms(rec("t1", "a", valid=False), rec("t2", "a", valid=False))
    assert notes("a", "baseline", mine, base)[:2] == [
        "a has no valid cell (2 of 2 invalid): nothing to compare",
        "baseline has no cell for this model",
    ]
    mine, base = arms(
        *(rec(f"t{i}", "a", valid=i > 0) for i in range(4)),
        *(rec(f"t{i}", "baseline") for i in range(4)),
    )
    assert notes("a", "baseline", mine, base) == [
        "warning: a has 25% invalid cells (1 of 4), baseline 0% (0 of 4); invalid cells are left "
        "out, so its quality figures may be biased"
    ]


def test_the_bound_fills_invalid_cells_both_ways_only_where_shares_differ() -> None:
    same = arms(*(rec(f"t{i}", side) for i in range(4) for side in ("a", "baseline")))
    assert bound("pass", same[1], same[0]) is None
    mine, base = arms(
        *(rec(f"t{i}", "a", valid=i < 3) for i in range(4)),
        *(rec(f"t{i}", "baseline", correct=False) for i in range(4)),
    )
    b = bound("pass", base, mine)
    assert b is not None
    assert (b.arm_invalid, b.arm_cells, b.base_invalid, b.base_cells) == (1, 4, 0, 4)
    assert (b.valid.n_tasks, b.valid.estimate) == (3, 100.0)  # t3 has no valid arm cell
    assert (b.worst.n_tasks, b.worst.estimate) == (4, 75.0)  # the arm's invalid cell failed
    assert (b.best.n_tasks, b.best.estimate) == (4, 100.0)  # and passed
    assert bound("cost_usd", base, mine) is None  # only rates have a worst and a best case


def effect(estimate: float, low: float, high: float, p: float) -> Effect:
    return Effect("pass", "rate_diff", estimate, low, high, p, None, 20, "undecided", None)


def test_a_direction_needs_the_bound_on_its_side() -> None:
    valid = effect(20.0, 10.0, 30.0, 0.001)
    agrees = Bound("pass", 3, 20, 0, 20, valid, effect(12.0, 2.0, 22.0, 0.02), effect(25.0, 15.0, 35.0, 1e-4))
    decided = bounded(valid, agrees)
    assert (decided.p, decided.low, decided.high, decided.verdict) == (0.02, 2.0, 35.0, "better")
    turns = replace(agrees, worst=effect(-4.0, -14.0, 6.0, 0.4))
    undecided = bounded(valid, turns)
    assert (undecided.p, undecided.low, undecided.verdict) == (1.0, -14.0, "undecided")
    assert bounded(replace(valid, tested=False), agrees).verdict == "undecided"
    assert decided.estimate == pytest.approx(20.0)
