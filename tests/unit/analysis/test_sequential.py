"""The sequential mode's pure parts: the group-sequential boundary, the look's decision, what a
resume carries, and the final verdict rows."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from pytest_ponybench.analysis import procedure, sequential, stats, verdict
from pytest_ponybench.core.records import Record, loaded


@pytest.mark.parametrize(
    ("spending", "fractions", "expected"),
    [
        # Lan-DeMets O'Brien-Fleming-type, two-sided 5 %, equally spaced looks: the published
        # table (Jennison & Turnbull 2000; R ldbounds, bounds(t, iuse = 1, alpha = 0.025 per side)).
        ("obrien-fleming", (0.5, 1.0), (2.9626, 1.9686)),
        ("obrien-fleming", (0.2, 0.4, 0.6, 0.8, 1.0), (4.8769, 3.3570, 2.6803, 2.2898, 2.0310)),
        # Lan-DeMets Pocock-type, same tables (iuse = 2).
        ("pocock", (0.5, 1.0), (2.1570, 2.2010)),
        ("pocock", (0.2, 0.4, 0.6, 0.8, 1.0), (2.4380, 2.4268, 2.4102, 2.3966, 2.3860)),
    ],
)
def test_boundaries_match_the_published_tables(
    spending: str, fractions: tuple[float, ...], expected: tuple[float, ...]
) -> None:
    assert sequential.boundaries(fractions, 0.05, spending) == pytest.approx(expected, abs=2e-4)


def test_one_look_is_the_fixed_test_and_bad_fractions_are_refused() -> None:
    assert sequential.boundaries((1.0,), 0.05) == pytest.approx((1.959964,), abs=1e-5)
    assert sequential.nominal_levels((1.0,), 0.05) == pytest.approx([0.05], abs=1e-6)
    for spending in sequential.SPENDING:
        assert sequential.spent(1.0, 0.05, spending) == pytest.approx(0.05)
        assert sequential.spent(0.5, 0.05, spending) < sequential.spent(0.8, 0.05, spending) < 0.05
    with pytest.raises(ValueError, match="must increase"):
        sequential.boundaries((0.5, 0.5), 0.05)
    with pytest.raises(ValueError, match=r"in \(0, 1\]"):
        sequential.boundaries((0.0, 1.0), 0.05)
    with pytest.raises(ValueError, match="unknown spending"):
        sequential.spent(0.5, 0.05, "haybittle")


def test_looks_spend_less_than_the_fixed_level_each() -> None:
    levels = sequential.nominal_levels((1 / 3, 2 / 3, 1.0), 0.045)
    assert all(0 < lv < 0.045 for lv in levels)
    # Pocock-type: about the same level at every look, which is what lets a large effect stop early.
    assert max(levels) / min(levels) < 1.3


def cell(task: str, arm: str, run: int, ok: bool, **extra: Any) -> Record:
    return loaded(
        {
            "task": task,
            "arm": arm,
            "model": "sonnet",
            "run": run,
            "valid": True,
            "correct": ok,
            "safe": True,
            "cost_usd": 0.1,
            "total_loc": 40,
            "input_tokens": 1000,
            "duration_ms": 20_000,
            **extra,
        }
    )


def test_a_clear_gain_stops_at_the_first_look() -> None:
    records = [cell(f"t{i:02d}", arm, 0, arm == "mine") for i in range(20) for arm in ("baseline", "mine")]
    plan = sequential.Plan(max_runs=3)
    step = sequential.decide(records, plan)
    (d,) = step.decisions
    assert (d.comparison, d.outcome, d.look) == ("sonnet/mine", sequential.BETTER, 1)
    assert step.done and step.look.outcomes == {"sonnet/mine": "better"}
    assert (step.look.number, step.look.runs) == (1, 1) and step.look.fraction == pytest.approx(1 / 3)
    assert d.level == pytest.approx(0.05 * procedure.PRIMARY_SHARE)
    assert 0 < d.nominal < d.level
    assert d.effect is not None and d.effect.low > 0
    assert step.summary() == "look 1 at 1 runs per task: sonnet/mine better"


def test_no_difference_is_provably_negligible_and_noise_continues() -> None:
    # 60 tasks, the arms tell apart on 4 of them, 2 each way: the repeated interval at the
    # look's level is about +/-8 points, within +/-10.
    same = [
        cell(f"t{i:02d}", arm, 0, (i % 2 == 0) if i >= 4 else (arm == "mine") == (i < 2))
        for i in range(60)
        for arm in ("baseline", "mine")
    ]
    step = sequential.decide(same, sequential.Plan(max_runs=3))
    assert step.decisions[0].outcome == sequential.NEGLIGIBLE and step.done
    effect = step.decisions[0].effect
    assert effect is not None and -10 < effect.low < -5 and 5 < effect.high < 10
    # A coin in both arms: nothing settles at the first of three looks, and at the last look
    # what is still open is undecided.
    rng = random.Random(8)
    coin = [
        cell(f"t{i:02d}", arm, r, rng.random() < 0.5)
        for i in range(20)
        for r in range(3)
        for arm in ("baseline", "mine")
    ]
    plan = sequential.Plan(max_runs=3)
    first = sequential.decide([r for r in coin if r["run"] < 1], plan)
    assert first.decisions[0].outcome == sequential.CONTINUE and not first.done
    second = sequential.decide([r for r in coin if r["run"] < 2], plan, [first.look])
    last = sequential.decide(coin, plan, [first.look, second.look])
    assert last.look.number == 3 and last.look.fraction == 1.0 and last.done
    assert last.decisions[0].outcome in (sequential.UNDECIDED, sequential.NEGLIGIBLE)


@pytest.mark.parametrize("ok", [False, True])
def test_every_task_tied_is_never_negligible(ok: bool) -> None:
    # Every cell fails (or passes) on both arms at every look: a floor (a ceiling) is no
    # evidence of a size. The look's interval is the cells' binomial noise and the run goes on;
    # at the last look it is undecided, never negligible.
    tied = [
        cell(f"t{i:02d}", arm, r, ok) for i in range(10) for r in range(3) for arm in ("baseline", "mine")
    ]
    plan = sequential.Plan(max_runs=3)
    looks: list[sequential.Look] = []
    for runs in (1, 2, 3):
        step = sequential.decide([r for r in tied if r["run"] < runs], plan, looks, runs=runs)
        looks.append(step.look)
        (decision,) = step.decisions
        assert decision.effect is not None and decision.effect.tied
        assert decision.effect.low < -10 and decision.effect.high > 10  # 0/30 against 0/30: not a point
    assert decision.outcome == sequential.UNDECIDED


def test_negligible_never_rests_on_a_spread_below_the_runs_own_noise() -> None:
    # 20 tasks x 3 runs: on 19 both arms pass one run of three (the difference 0, the runs
    # noisy), on one the arm passes once more. The spread between tasks is tiny, so the repeated
    # interval is within +/-10 points; but a task's difference varies at least as much as its
    # runs do, and with that spread the interval is nowhere near: the run goes on.
    records = [
        cell(f"t{i:02d}", arm, r, r == 0 or (arm == "mine" and i == 0 and r == 1))
        for i in range(20)
        for r in range(3)
        for arm in ("baseline", "mine")
    ]
    step = sequential.decide(records, sequential.Plan(max_runs=6), runs=3)
    (decision,) = step.decisions
    assert decision.effect is not None and -10 < decision.effect.low and decision.effect.high < 10
    assert decision.outcome == sequential.CONTINUE


def test_a_look_is_never_taken_twice_on_the_same_data() -> None:
    records = [cell(f"t{i:02d}", arm, 0, i % 3 == 0) for i in range(10) for arm in ("baseline", "mine")]
    plan = sequential.Plan(max_runs=4)
    step = sequential.decide(records, plan)
    with pytest.raises(ValueError, match="no new runs since look 1"):
        sequential.decide(records, plan, [step.look])
    with pytest.raises(ValueError, match="looks out of order"):
        sequential.decide(records, plan, [sequential.Look(2, 0, 0.0)], runs=2)
    with pytest.raises(ValueError, match="no run to look at"):
        sequential.decide([], plan)


def test_a_settled_comparison_stays_settled_and_hands_its_level_on() -> None:
    records = [
        cell(f"t{i:02d}", arm, 0, arm != "baseline" and (arm == "a" or i % 2 == 0))
        for i in range(20)
        for arm in ("baseline", "a", "b")
    ]
    plan = sequential.Plan(max_runs=3)
    first = sequential.decide(records, plan)
    outcomes = {d.arm: d for d in first.decisions}
    assert outcomes["a"].outcome == sequential.BETTER
    assert outcomes["a"].level == pytest.approx(0.045 / 2)  # two primaries share the level
    more = records + [
        cell(f"t{i:02d}", arm, 1, arm == "b" and i % 2 == 1)
        for i in range(20)
        for arm in ("baseline", "a", "b")
    ]
    second = sequential.decide(more, plan, [first.look])
    by_arm = {d.arm: d for d in second.decisions}
    assert by_arm["a"].outcome == sequential.BETTER and by_arm["a"].look == 1 and by_arm["a"].effect is None
    assert by_arm["b"].level == pytest.approx(0.045)  # a was decided: its half is handed on


def test_the_plan_and_looks_round_trip_through_run_json() -> None:
    plan = sequential.Plan(max_runs=6, block_runs=2, primary="cost", spending="obrien-fleming")
    assert plan.primary == "cost_usd" and plan.looks == 3
    assert plan.negligible_margin() == 10.0
    assert sequential.Plan.from_json(plan.to_json()) == plan
    look = sequential.Look(2, 4, 4 / 6, {"sonnet/mine": "continue"})
    assert sequential.Look.from_json(look.to_json()) == look
    with pytest.raises(ValueError, match="unknown key"):
        sequential.Plan.from_json({"max_runs": 3, "maxruns": 4})
    with pytest.raises(ValueError, match="no max_runs"):
        sequential.Plan.from_json({})
    with pytest.raises(ValueError, match="sequential look"):
        sequential.Look.from_json({"number": 1})
    for bad in ({"max_runs": 0}, {"max_runs": 3, "alpha": 1.5}, {"max_runs": 3, "margin": -1.0}):
        with pytest.raises(ValueError):
            sequential.Plan.from_json(bad)
    with pytest.raises(ValueError, match="unknown metric"):
        sequential.Plan(max_runs=3, primary="vibes")


def test_final_verdicts_carry_the_sequential_decision() -> None:
    records = [
        cell(f"t{i:02d}", arm, 0, arm == "mine", cost_usd=0.1 if arm == "baseline" else 0.3 + 0.01 * i)
        for i in range(20)
        for arm in ("baseline", "mine")
    ]
    plan = sequential.Plan(max_runs=3)
    step = sequential.decide(records, plan)
    (row,) = sequential.final_verdicts(records, plan, [step.look])
    eff = {e.metric: e for e in row["effects"]}
    assert eff["pass"].verdict == stats.BETTER
    # pass was decided, so cost is tested with the whole level, at this look's boundary.
    assert eff["cost_usd"].verdict == stats.WORSE
    level = sequential.nominal_at(plan, [step.look])
    assert level(0.05) < 0.05 and math.isclose(level(0.0), 0.0)


def test_after_a_stop_the_primary_shows_its_repeated_interval() -> None:
    """The 95 % interval of the last look's data covers too seldom after a stop chosen by the
    data (92-93 % in an A/A); the block shows the repeated confidence interval, the one the look
    decided with, and says its estimate is biased by stopping."""
    rng = random.Random(3)
    records = [
        cell(f"t{i:02d}", arm, r, rng.random() < (0.35 if arm == "baseline" else 0.75))
        for i in range(20)
        for r in range(3)
        for arm in ("baseline", "mine")
    ]
    plan = sequential.Plan(max_runs=3)
    looks: list[sequential.Look] = []
    for runs in (1, 2, 3):
        step = sequential.decide([r for r in records if r["run"] < runs], plan, looks, runs=runs)
        looks.append(step.look)
        if step.done:
            break
    (decision,) = step.decisions
    assert decision.outcome == sequential.BETTER and decision.effect is not None
    seen = sequential.seen_by(records, looks)
    (row,) = sequential.final_verdicts(seen, plan, looks)
    shown = next(e for e in row["effects"] if e.primary)
    assert shown.repeated == pytest.approx(decision.nominal)
    assert (shown.low, shown.high) == pytest.approx((decision.effect.low, decision.effect.high))
    (fixed,) = stats.verdicts(seen)
    at95 = next(e for e in fixed["effects"] if e.primary)
    assert shown.low < at95.low and shown.high > at95.high  # wider than the naive 95 %
    line = next(x for x in verdict.header_lines(row) if x.startswith("sequential stop"))
    assert line == (
        "sequential stop: pass's interval is the repeated confidence interval (it holds at every "
        f"look at once: 95% over the looks, p < {decision.nominal:.2g} at this one); its estimate is "
        "biased away from no change by stopping when decided"
    )


def test_a_runner_that_adds_tasks_passes_the_share_of_cells_done() -> None:
    # 10 of at most 20 tasks, 1 of at most 2 runs: a quarter of the planned cells.
    records = [cell(f"t{i:02d}", arm, 0, arm == "mine") for i in range(10) for arm in ("baseline", "mine")]
    plan = sequential.Plan(max_runs=2)
    step = sequential.decide(records, plan, fraction=0.25)
    assert step.look.fraction == 0.25 and not step.look.fraction >= 1.0
    assert step.decisions[0].nominal == pytest.approx(sequential.nominal_levels((0.25,), 0.045)[0])
    more = records + [
        cell(f"t{i:02d}", arm, 0, arm == "mine") for i in range(10, 20) for arm in ("baseline", "mine")
    ]
    second = sequential.decide(more, plan, [step.look], runs=1, fraction=0.5)  # tasks added, runs not
    assert second.look.number == 2 and second.look.runs == 1
    with pytest.raises(ValueError, match="no new runs since look 1"):
        sequential.decide(more, plan, [step.look], runs=1, fraction=0.25)
    with pytest.raises(ValueError, match=r"must lie in \(0, 1\]"):
        sequential.decide(records, plan, fraction=1.5)
