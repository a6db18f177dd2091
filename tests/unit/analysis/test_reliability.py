"""Reliability per arm: pass^k and pass@k over tasks, their estimators and intervals, and where
they show (the verdict block, compare)."""

from __future__ import annotations

import math

import pytest

from pytest_ponybench.analysis import reliability, stats, verdict
from pytest_ponybench.core.records import Record, loaded


def test_the_per_task_estimators_by_hand() -> None:
    # 3 of 5 runs passed: all of k = 3 drawn pass in C(3,3) / C(5,3) = 1/10 of the draws; at
    # least one always does (only 2 failed).
    assert reliability.task_every(5, 3, 3) == pytest.approx(0.1)
    assert reliability.task_any(5, 3, 3) == 1.0
    # 1 of 5 passed, k = 2: none of the pair passes in C(4,2) / C(5,2) = 6/10.
    assert reliability.task_any(5, 1, 2) == pytest.approx(0.4)
    assert reliability.task_every(5, 1, 2) == 0.0
    # Exactly k runs: 0 or 1.
    assert (reliability.task_every(3, 3, 3), reliability.task_every(3, 2, 3)) == (1.0, 0.0)


def test_pass_every_and_any_over_tasks_with_wilson_intervals() -> None:
    outcomes = {f"t{i}": [True] * 3 for i in range(9)}
    outcomes.update({f"u{i}": [True, False, True] for i in range(8)})
    outcomes.update({f"v{i}": [False] * 3 for i in range(3)})
    r = reliability.reliability(outcomes, 3)
    assert (r.k, r.tasks, r.short) == (3, 20, 0)
    assert r.every == pytest.approx(9 / 20) and r.any == pytest.approx(17 / 20)
    # Every task has exactly k runs: the interval is Wilson's on 9 of 20 and 17 of 20.
    ci = stats.wilson(9, 20)
    assert (r.every_low, r.every_high) == pytest.approx((ci.low, ci.high))
    ci = stats.wilson(17, 20)
    assert (r.any_low, r.any_high) == pytest.approx((ci.low, ci.high))
    # A task with fewer than k valid runs is left out of the figure, counted, and bounded: the
    # low end counts it failing (9 of 21), the high end passing (10 of 21).
    outcomes["short"] = [True, True]
    r = reliability.reliability(outcomes, 3)
    assert (r.tasks, r.short) == (20, 1) and r.every == pytest.approx(9 / 20)
    assert (r.every_low, r.every_high) == pytest.approx((stats.wilson(9, 21).low, stats.wilson(10, 21).high))
    assert (r.any_low, r.any_high) == pytest.approx((stats.wilson(17, 21).low, stats.wilson(18, 21).high))
    with pytest.raises(ValueError, match="k must be >= 1"):
        reliability.reliability(outcomes, 0)


def test_no_task_with_enough_runs_is_said() -> None:
    r = reliability.reliability({"a": [True]}, 2)
    assert (r.tasks, r.short, r.every, r.every_low, r.every_high) == (0, 1, 0.0, 0.0, 1.0)
    assert reliability.describe("mine", r) == "mine: no task with 2 valid runs (1 left out)"


def cell(task: str, arm: str, run: int, ok: bool, valid: bool = True) -> Record:
    return loaded(
        {"task": task, "arm": arm, "model": "m", "run": run, "valid": valid, "correct": ok, "safe": True}
    )


def test_per_arm_takes_k_from_the_grid_and_leaves_single_runs_out() -> None:
    records = [cell(f"t{i}", "baseline", r, r < 2) for i in range(4) for r in range(3)]
    records += [
        cell(f"t{i}", "mine", r, True, valid=not (i == 0 and r == 2)) for i in range(4) for r in range(3)
    ]
    records += [cell(f"t{i}", "solo", 0, True) for i in range(4)]
    out = reliability.per_arm(records, stats.pass_value)
    assert set(out) == {("m", "baseline"), ("m", "mine")}  # one run: pass^1 is the pass rate
    base, mine = out[("m", "baseline")], out[("m", "mine")]
    assert (base.k, base.every, base.any) == (3, 0.0, 1.0)
    assert (mine.k, mine.tasks, mine.short, mine.every) == (3, 3, 1, 1.0)
    assert reliability.describe("mine", mine) == (
        "mine: pass^3 3/3 tasks (100%, Wilson, bounded 30-100%), pass@3 3/3 tasks (100%, Wilson, "
        "bounded 30-100%); 1 task(s) with fewer than 3 valid runs left out, bounded (counted failing "
        "at the low end, passing at the high)"
    )


def test_unscored_cells_are_short_runs_never_failures() -> None:
    # The scorer never said correct on run 2 of every task: those tasks have 2 scored runs of 3,
    # so they are left out of pass^3 and bounded, not counted as failing it.
    records = [cell(f"t{i}", "mine", r, True) for i in range(4) for r in range(3)]
    records = [loaded({**r, "correct": None}) if r["run"] == 2 else r for r in records]
    (mine,) = reliability.per_arm(records, stats.pass_value).values()
    assert (mine.tasks, mine.short) == (0, 4)
    assert (mine.every_low, mine.every_high) == (0.0, 1.0)


def test_the_block_shows_reliability() -> None:
    records = [cell(f"t{i}", "baseline", r, (i + r) % 2 == 0) for i in range(6) for r in range(2)]
    records += [cell(f"t{i}", "mine", r, True) for i in range(6) for r in range(2)]
    (row,) = stats.verdicts(records)
    assert set(row["reliability"]) == {"mine", "baseline"}
    text = verdict.render_verdicts(records)
    assert "\n  reliability of mine: pass^2 6/6 tasks (100%, Wilson 61-100%), pass@2 6/6 tasks" in text
    assert "\n  reliability of baseline: pass^2 0/6 tasks (0%, Wilson 0-39%), pass@2 6/6 tasks" in text
    assert not math.isnan(row["reliability"]["mine"].every_low)
