"""Tests for `analysis/stats/rows.py`: verdict rows over records, the family and its levels.

Oracle values come from scipy 1.17.1 and statsmodels 0.15.0 (throwaway venv), computed on
2026-11-29; the call that produced each one sits next to it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pytest_ponybench.analysis.stats.effects import Effect
from pytest_ponybench.analysis.stats.rows import verdicts
from tests.unit._support.records import record

ABS = 1e-6


def effects_by_metric(rows: list[Any], arm: str) -> dict[str, Effect]:
    (row,) = [r for r in rows if r["arm"] == arm]
    return {e.metric: e for e in row["effects"]}


def test_strong_effect_is_better_and_interval_holds_truth() -> None:
    rng = random.Random(20261129)
    records = []
    for t in range(20):
        for run in range(3):
            base_cost = rng.lognormvariate(0.0, 0.3)
            records.append(record(f"t{t}", "baseline", run, rng.random() < 0.3, base_cost))
            arm_cost = 0.5 * rng.lognormvariate(0.0, 0.3)
            records.append(record(f"t{t}", "ponytail", run, rng.random() < 0.9, arm_cost))
    rows = verdicts(records)
    assert [(r["model"], r["arm"], r["baseline"]) for r in rows] == [("sonnet", "ponytail", "baseline")]
    eff = effects_by_metric(rows, "ponytail")
    for metric in ("pass", "correct"):
        e = eff[metric]
        assert e.verdict == ("better" if metric == "pass" else "undecided")  # correct: pass's breakdown
        assert e.low <= 60.0 <= e.high
        assert e.n_tasks == 20
    assert eff["pass"].p_adj is not None and eff["pass"].p_adj >= eff["pass"].p
    assert eff["correct"].p_adj is None and not eff["correct"].tested
    assert eff["cost_usd"].verdict == "better"
    assert eff["cost_usd"].low <= -50.0 <= eff["cost_usd"].high
    # Identical constants in both arms: no change, and no false verdict.
    for metric in ("safe", "total_loc", "tokens", "duration_ms"):
        assert eff[metric].verdict == "undecided"
        assert eff[metric].estimate == 0.0


def test_pure_noise_is_undecided() -> None:
    rng = random.Random(12345)
    records = []
    for t in range(20):
        difficulty = rng.random()
        for arm in ("baseline", "a", "b"):
            for run in range(3):
                records.append(
                    record(
                        f"t{t}",
                        arm,
                        run,
                        rng.random() < difficulty,
                        rng.lognormvariate(0.0, 0.5),
                        safe=rng.random() < 0.9,
                        total_loc=rng.randint(20, 80),
                        duration_ms=rng.randint(10_000, 60_000),
                        output_tokens=rng.randint(100, 900),
                    )
                )
    rows = verdicts(records)
    assert [r["arm"] for r in rows] == ["a", "b"]
    for row in rows:
        assert len(row["effects"]) == 7
        for e in row["effects"]:
            assert e.verdict == "undecided", e
            if e.tested:
                assert e.needed_tasks is not None and e.needed_tasks >= 2


def test_verdicts_excludes_invalid_and_pairs_only_shared_tasks() -> None:
    records = []
    for t in range(8):
        records.append(record(f"t{t}", "baseline", 0, False, 1.0))
        records.append(record(f"t{t}", "arm", 0, True, 1.0))
        # Invalid runs are infrastructure noise; had they counted, the arm would look worse.
        records.append(record(f"t{t}", "arm", 1, False, 9.0, valid=False))
    records.append(record("solo", "arm", 0, True, 1.0))  # no baseline: unpaired
    records.append(record("t0", "baseline", 0, True, 1.0))  # later attempt of the same cell wins
    rows = verdicts(records)
    eff = effects_by_metric(rows, "arm")
    assert eff["pass"].n_tasks == 8
    assert eff["pass"].estimate == pytest.approx(100 * 7 / 8)
    assert eff["cost_usd"].estimate == 0.0
    # Half the arm's cells are invalid, none of the baseline's: pass is bounded. On the valid
    # cells alone: scipy ttest_1samp([0] + [1] * 7, 0).pvalue; with the arm's invalid cells
    # failed, every task but t0 is +0.5 and t0 -0.5: ttest_1samp([-0.5] + [0.5] * 7, 0).pvalue
    # (scipy 1.17.1, throwaway venv, 2026-12-01).
    (bound,) = rows[0]["bounds"]
    assert bound.valid.p == pytest.approx(0.000211555, abs=1e-8)
    assert bound.worst.estimate == pytest.approx(37.5)
    assert bound.worst.p == pytest.approx(0.019942126131992536, abs=1e-8)
    assert eff["pass"].p == bound.worst.p  # the larger of the two decides
    assert eff["pass"].verdict == "better"


def test_verdicts_weigh_pass_first_over_the_arms_of_one_model() -> None:
    records = []
    for t in range(7):
        records.append(record(f"t{t}", "baseline", 0, False, 1.0))
        records.append(record(f"t{t}", "a", 0, True, 1.0))
        records.append(record(f"t{t}", "b", 0, True, 1.0))
        records.append(record(f"t{t}", "baseline", 0, False, 1.0, model="haiku"))
        records.append(record(f"t{t}", "a", 0, True, 1.0, model="haiku"))
    rows = verdicts(records)
    assert [(r["model"], r["arm"]) for r in rows] == [("haiku", "a"), ("sonnet", "a"), ("sonnet", "b")]
    raw = 2 / 2**7  # zero spread: every task +100 pp, so the sign test decides
    # The family: every arm of a model; in each block pass weighs 0.9, loc, cost, tokens and
    # time 0.025 each (they do not move: p 1). haiku: one block; sonnet: two, each half.
    haiku_pass = effects_by_metric(rows[:1], "a")["pass"]
    sonnet_a = effects_by_metric(rows[1:], "a")["pass"]
    sonnet_b = effects_by_metric(rows[1:], "b")["pass"]
    assert haiku_pass.p_adj == pytest.approx(raw / 0.9)
    # Weighted Holm: the first of the two passes at p / 0.45 over all the weight, the second
    # over what is left once the first handed its 0.45 on; the adjusted p stays monotone.
    assert sonnet_a.p_adj == pytest.approx(raw / 0.45)
    assert sonnet_b.p_adj == pytest.approx(raw / 0.45)
    assert haiku_pass.verdict == sonnet_b.verdict == "better"  # 0.017 and 0.035: pass alone decides
    assert (haiku_pass.level, sonnet_b.level) == pytest.approx((0.045, 0.0225))
    assert (
        rows[0]["family"].describe()
        == "family: every arm of haiku (1 comparison, 5 tests), familywise error <= 5%"
    )
    assert rows[1]["family"].describe() == (
        "family: every arm of sonnet (2 comparisons, 10 tests), familywise error <= 5%"
    )
    correct = effects_by_metric(rows[:1], "a")["correct"]
    assert (correct.tested, correct.p_adj, correct.verdict) == (False, None, "undecided")
    cost = effects_by_metric(rows[:1], "a")["cost_usd"]
    assert cost.p_adj == 1.0 and cost.level == pytest.approx(0.05 * 0.025)


def test_the_family_of_the_run_spans_models() -> None:
    records = []
    for t in range(7):
        for model in ("sonnet", "haiku"):
            records.append(record(f"t{t}", "baseline", 0, False, 1.0, model=model))
            records.append(record(f"t{t}", "a", 0, True, 1.0, model=model))
    rows = verdicts(records, family="run")
    assert {r["family"].label for r in rows} == {"every arm and model of the run"}
    assert all(r["family"].tests == 10 and r["family"].blocks == 2 for r in rows)
    passes = [effects_by_metric([r], "a")["pass"] for r in rows]
    assert [e.level for e in passes] == pytest.approx([0.0225, 0.0225])
    with pytest.raises(ValueError, match="unknown family 'arm'"):
        verdicts(records, family="arm")


def test_a_declared_primary_takes_the_first_level() -> None:
    records = []
    for t in range(12):
        records.append(record(f"t{t}", "baseline", 0, t % 2 == 0, 1.0 + 0.01 * t))
        records.append(record(f"t{t}", "cheap", 0, t % 2 == 0, 0.5 + 0.01 * t))
    rows = verdicts(records, primary="cost")
    eff = effects_by_metric(rows, "cheap")
    assert eff["cost_usd"].primary and eff["cost_usd"].level == pytest.approx(0.045)
    assert not eff["pass"].primary and eff["pass"].level == pytest.approx(0.05 * 0.025)
    assert eff["cost_usd"].verdict == "better"
    # correct as the primary is tested; safe stays pass's breakdown.
    eff = effects_by_metric(verdicts(records, primary="correct"), "cheap")
    assert eff["correct"].tested and eff["correct"].primary and not eff["safe"].tested
    with pytest.raises(ValueError, match="unknown metric 'speed'"):
        verdicts(records, primary="speed")


def test_verdicts_without_baseline_or_records() -> None:
    assert verdicts([]) == []
    rows = verdicts([record("t0", "arm", 0, True, 1.0)])
    assert all(e.n_tasks == 0 and e.verdict == "undecided" for e in rows[0]["effects"])
    assert all(e.p_adj == 1.0 for e in rows[0]["effects"] if e.tested)
    assert rows[0]["notes"] == ["baseline has no cell for this model"]
