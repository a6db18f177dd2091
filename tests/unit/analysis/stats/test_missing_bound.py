"""Missing cells, bounded: where an arm's and the baseline's invalid shares differ, pass is also
computed with the invalid cells filled in both extreme ways, and a direction is called only
where that bound agrees."""

from __future__ import annotations

from pytest_ponybench.analysis import stats, verdict
from pytest_ponybench.core.records import Record, loaded


def cell(task: str, arm: str, run: int, ok: bool, valid: bool = True) -> Record:
    return loaded(
        {
            "task": task,
            "arm": arm,
            "model": "sonnet",
            "run": run,
            "valid": valid,
            "correct": ok,
            "safe": True,
            "cost_usd": 0.1,
            "total_loc": 40,
            "input_tokens": 1000,
            "duration_ms": 20_000,
        }
    )


def pass_of(row: stats.ArmVerdict) -> stats.Effect:
    return next(e for e in row["effects"] if e.metric == "pass")


def test_failures_hidden_as_invalid_cells_do_not_make_an_arm_better() -> None:
    # The same coin in both arms (run 0 passes, run 1 fails), but every one of the arm's
    # failures comes back invalid (a timeout on what it cannot do). On its valid cells alone
    # the arm passes every task: +50 points on every task, which the sign test decides.
    records = [cell(f"t{i}", "baseline", r, r == 0) for i in range(10) for r in range(2)]
    records += [cell(f"t{i}", "mine", r, r == 0, valid=r == 0) for i in range(10) for r in range(2)]
    (row,) = stats.verdicts(records)
    (bound,) = row["bounds"]
    assert bound.valid.verdict == "better" and bound.valid.estimate == 50.0
    assert (bound.arm_invalid, bound.arm_cells, bound.base_invalid, bound.base_cells) == (10, 20, 0, 20)
    assert bound.worst.estimate == 0.0  # its invalid cells failed: the same as the baseline
    e = pass_of(row)
    assert e.estimate == 50.0 and e.verdict == "undecided"
    assert e.low <= 0.0 <= e.high  # the interval shown spans the bound
    text = verdict.render_verdicts(records)
    assert (
        "  missing cells bounded: mine 50% (10 of 20) invalid, baseline 0% (0 of 20); pass with "
        "mine's invalid cells failed and baseline's passed +0.0 pp"
    ) in text
    assert "better or worse only where that bound agrees (the interval shown spans all three)" in text


def test_a_real_gain_survives_its_bound() -> None:
    records = [cell(f"t{i}", "baseline", r, False) for i in range(10) for r in range(3)]
    records += [
        cell(f"t{i}", "mine", r, True, valid=not (i < 2 and r == 0)) for i in range(10) for r in range(3)
    ]
    (row,) = stats.verdicts(records)
    (bound,) = row["bounds"]
    assert bound.worst.estimate > 90.0 and bound.worst.low > 0
    e = pass_of(row)
    assert e.verdict == "better"
    assert e.low == min(bound.valid.low, bound.worst.low, bound.best.low)
    assert e.p == max(bound.valid.p, bound.worst.p)


def test_a_loss_needs_its_best_case_to_agree() -> None:
    # The arm fails what it runs, but most of its cells are invalid: were they all passes, it
    # would be ahead on most tasks. Worse is not called.
    records = [cell(f"t{i}", "baseline", r, r == 0) for i in range(10) for r in range(3)]
    records += [cell(f"t{i}", "mine", r, False, valid=r == 0) for i in range(10) for r in range(3)]
    (row,) = stats.verdicts(records)
    (bound,) = row["bounds"]
    assert bound.valid.verdict == "worse"
    assert bound.best.estimate > 0
    assert pass_of(row).verdict == "undecided"


def test_equal_invalid_shares_are_not_bounded() -> None:
    records = [
        cell(f"t{i}", arm, r, arm == "mine", valid=r != 0 or i != 0)
        for i in range(8)
        for r in range(2)
        for arm in ("baseline", "mine")
    ]
    (row,) = stats.verdicts(records)
    assert row["bounds"] == []
    assert "missing cells bounded" not in verdict.render_verdicts(records)
