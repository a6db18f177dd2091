"""Tests for the paired verdict statistics.

Oracle values come from scipy 1.17.1 and statsmodels 0.15.0 (throwaway venv), computed on
2026-11-29; the call that produced each one sits next to it.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from pytest_ponybench.analysis.stats import (
    Effect,
    Interval,
    clustered_mean_se,
    compare_gate,
    decide,
    holm,
    needed_tasks,
    paired_log_ratio,
    paired_rate_diff,
    parse_gate,
    sign_test_p,
    t_interval,
    t_quantile,
    t_two_sided_p,
    task_means,
    verdicts,
    wilson,
)
from pytest_ponybench.core.records import Record, loaded

ABS = 1e-6


# --- distributions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n_ok", "n", "low", "high"),
    [
        # Issue oracles; statsmodels proportion_confint(k, n, method="wilson") agrees to 1e-8.
        (7, 10, 0.396778, 0.892209),
        (0, 5, 0.0, 0.434482),
        (10, 10, 0.722467, 1.0),
    ],
)
def test_wilson_oracle(n_ok: int, n: int, low: float, high: float) -> None:
    ci = wilson(n_ok, n)
    assert ci.low == pytest.approx(low, abs=ABS)
    assert ci.high == pytest.approx(high, abs=ABS)


def test_wilson_edges_are_exact_and_empty_is_uninformative() -> None:
    assert wilson(0, 5).low == 0.0
    assert wilson(10, 10).high == 1.0
    assert wilson(0, 0) == Interval(0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(6, 5)


@pytest.mark.parametrize(
    ("df", "expected"),
    [
        (1, 12.706204736174694),  # scipy.stats.t.ppf(0.975, 1) on 2026-11-29
        (2, 4.302652729749462),  # scipy.stats.t.ppf(0.975, 2) on 2026-11-29
        (5, 2.5705818356363146),  # scipy.stats.t.ppf(0.975, 5) on 2026-11-29
        (30, 2.0422724563012378),  # scipy.stats.t.ppf(0.975, 30) on 2026-11-29
    ],
)
def test_t_quantile_oracle(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=ABS)
    assert t_quantile(0.025, df) == pytest.approx(-expected, abs=ABS)


def test_t_quantile_edges() -> None:
    assert t_quantile(0.5, 3) == 0.0
    # scipy.stats.t.ppf(0.9999999, 1) on 2026-11-29: far tail, where CDF bisection would cancel.
    assert t_quantile(0.9999999, 1) == pytest.approx(3183098.861837451, rel=1e-9)
    for bad_p, df in [(0.0, 3), (1.0, 3), (0.5, 0)]:
        with pytest.raises(ValueError):
            t_quantile(bad_p, df)


def test_t_two_sided_p_oracle() -> None:
    # 2 * scipy.stats.t.sf(2.5, 7) on 2026-11-29
    assert t_two_sided_p(2.5, 7) == pytest.approx(0.04099221858575289, abs=ABS)
    assert t_two_sided_p(0.0, 7) == pytest.approx(1.0)
    assert t_two_sided_p(math.inf, 7) == 0.0


@pytest.mark.parametrize(
    ("wins", "losses", "expected"),
    [
        (8, 1, 0.0390625),  # scipy.stats.binomtest(8, 9, 0.5).pvalue on 2026-11-29
        (5, 5, 1.0),  # scipy.stats.binomtest(5, 10, 0.5).pvalue on 2026-11-29
        (3, 17, 0.0025768280029296875),  # scipy.stats.binomtest(3, 20, 0.5).pvalue on 2026-11-29
        (0, 5, 0.0625),  # five tasks all one way still cannot reject at 0.05
        (6, 0, 0.03125),
        (0, 0, 1.0),
    ],
)
def test_sign_test_oracle(wins: int, losses: int, expected: float) -> None:
    assert sign_test_p(wins, losses) == pytest.approx(expected, abs=ABS)


def test_sign_test_many_tasks_does_not_underflow() -> None:
    assert 0.0 < sign_test_p(900, 100) < 1e-100
    assert sign_test_p(500, 500) == pytest.approx(1.0)


def test_holm_oracle() -> None:
    # Issue oracle; statsmodels multipletests(p, method="holm")[1] agrees.
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02], abs=ABS)
    assert holm([]) == []


def test_holm_is_monotone_and_never_below_raw() -> None:
    rng = random.Random(7)
    for _ in range(200):
        ps = [rng.random() ** 3 for _ in range(rng.randint(1, 12))]
        adj = holm(ps)
        assert all(p <= a <= 1.0 for p, a in zip(ps, adj, strict=True))
        ranked = [a for _, a in sorted(zip(ps, adj, strict=True))]
        assert ranked == sorted(ranked)


# --- task-level summaries --------------------------------------------------------------------

CLUSTER_EXAMPLE = {"a": [1.0, 1, 1], "b": [1.0, 0, 1], "c": [0.0, 0, 0], "d": [1.0, 1, 0]}


def test_clustered_se_oracle() -> None:
    mean, se = clustered_mean_se(CLUSTER_EXAMPLE)  # issue oracle
    assert mean == pytest.approx(0.583333, abs=ABS)
    assert se == pytest.approx(0.209718, abs=ABS)


def test_clustered_se_degenerate() -> None:
    assert clustered_mean_se({}) == (0.0, math.inf)
    assert clustered_mean_se({"a": []}) == (0.0, math.inf)
    assert clustered_mean_se({"a": [1.0, 0.0]}) == (0.5, math.inf)


def test_task_means_drops_tasks_without_runs() -> None:
    assert task_means({"a": [1.0, 0.0, 1.0, 1.0], "b": []}) == {"a": 0.75}


def test_t_interval_degenerate() -> None:
    assert t_interval([]) == (0.0, Interval(-math.inf, math.inf))
    assert t_interval([0.3]) == (0.3, Interval(-math.inf, math.inf))
    # Equal up to float noise: zero spread. Below 6 tasks no sign test reaches 5 %, so there is
    # no interval; from 6 on the sign test's interval is the common value.
    mean, ci = t_interval([0.1 + 0.2, 0.3, 0.3])
    assert (ci.low, ci.high) == (-math.inf, math.inf)
    assert mean == pytest.approx(0.3)
    mean, ci = t_interval([0.1 + 0.2] + [0.3] * 5)
    assert ci.low == ci.high == pytest.approx(0.3)


# --- paired effects ------------------------------------------------------------------------


def runs(rate: float, n: int = 5) -> list[float]:
    """n runs whose mean is exactly `rate` (a multiple of 1/n)."""
    k = round(rate * n)
    return [1.0] * k + [0.0] * (n - k)


def test_paired_rate_diff_oracle() -> None:
    base_rates = [0.2, 0.4, 0.6, 0.0, 0.8, 0.4]
    arm_rates = [0.4, 1.0, 0.4, 0.4, 0.8, 0.8]
    base = {f"t{i}": runs(r) for i, r in enumerate(base_rates)}
    arm = {f"t{i}": runs(r) for i, r in enumerate(arm_rates)}
    arm["only_in_arm"] = [1.0]  # unpaired: must not count
    e = paired_rate_diff(base, arm, "correct")
    # scipy.stats.ttest_rel(arm_rates, base_rates).confidence_interval() * 100 on 2026-11-29
    assert e.estimate == pytest.approx(23.333333333333332, abs=ABS)
    assert e.low == pytest.approx(-7.561215387210255, abs=ABS)
    assert e.high == pytest.approx(54.22788205387692, abs=ABS)
    assert (e.metric, e.kind, e.n_tasks, e.p_adj) == ("correct", "rate_diff", 6, None)
    assert e.p == pytest.approx(0.10986650103422642, abs=ABS)  # scipy.stats.ttest_rel(...).pvalue
    assert e.verdict == "undecided"


def test_paired_log_ratio_oracle() -> None:
    base = {"a": [0.9, 1.1], "b": [2.0], "c": [0.5], "d": [4.0], "e": [1.5], "zero": [0.0]}
    arm = {"a": [0.8], "b": [1.5], "c": [0.45], "d": [3.0], "e": [1.6], "zero": [1.0]}
    e = paired_log_ratio(base, arm, "cost_usd")
    # logs = np.log(a / b) for a = [.8, 1.5, .45, 3, 1.6], b = [1, 2, .5, 4, 1.5];
    # r = scipy.stats.ttest_1samp(logs, 0); np.expm1(logs.mean() and r.confidence_interval()) * 100
    # on 2026-11-29. The task with a zero baseline has no ratio and is skipped.
    assert e.estimate == pytest.approx(-15.453282801740018, abs=ABS)
    assert e.low == pytest.approx(-29.797800664745587, abs=ABS)
    assert e.high == pytest.approx(1.8222713346370303, abs=ABS)
    assert e.p == pytest.approx(0.06628535815314937, abs=ABS)  # r.pvalue
    assert (e.kind, e.n_tasks, e.lower_is_better, e.verdict) == ("ratio", 5, True, "undecided")


@pytest.mark.parametrize(
    ("sd", "delta", "expected"),
    [
        # ceil(statsmodels TTestPower().solve_power(effect_size=delta / sd, alpha=0.05,
        # power=0.8)) on 2026-11-29: 33.37, 72.58, 198.15, 10.72, 55.95
        (0.2, 0.1, 34),
        (0.3, 0.1, 73),
        (0.5, 0.1, 199),
        (0.1, math.log(1.1), 11),
        (0.25, math.log(1.1), 56),
    ],
)
def test_needed_tasks_oracle(sd: float, delta: float, expected: int) -> None:
    assert needed_tasks(sd, delta) == expected


@pytest.mark.parametrize(
    ("sd", "delta", "alpha", "expected"),
    [
        # smallest n with scipy.stats.nct power of the two-sided t-test >= 0.8, 2026-11-30:
        # the Holm level of a family of five tests is 0.01.
        (0.3, 0.1, 0.01, 109),
        (0.25, math.log(1.1), 0.01, 84),
        (0.05, 0.1, 0.01, 7),
    ],
)
def test_needed_tasks_at_the_holm_level(sd: float, delta: float, alpha: float, expected: int) -> None:
    assert needed_tasks(sd, delta, alpha) == expected


def test_needed_tasks_floor() -> None:
    # Zero spread: the sign test's minimum at the level (6 at 5 %, 8 at 1 %).
    assert needed_tasks(0.0, 0.1) == 6
    assert needed_tasks(0.0, 0.1, 0.01) == 8
    # A tiny spread: the t-test needs only a few tasks, and never one.
    few = needed_tasks(0.01, 0.1)
    assert few is not None and 2 <= few <= 4


@pytest.mark.parametrize(
    ("fn", "low", "high"),
    [(paired_rate_diff, -100.0, 100.0), (paired_log_ratio, -100.0, math.inf)],
)
def test_no_paired_task_is_undecided(fn: Any, low: float, high: float) -> None:
    # The unbounded interval, in each kind's own range: anything from -100 pp / -100 % up.
    e = fn({}, {"a": [1.0]}, "m")
    assert (e.estimate, e.low, e.high, e.p, e.n_tasks) == (0.0, low, high, 1.0, 0)
    assert e.verdict == "undecided"
    assert e.needed_tasks is None


def test_one_task_has_no_interval() -> None:
    e = paired_rate_diff({"a": [0.0, 0.0]}, {"a": [1.0, 1.0]})
    assert e.estimate == 100.0
    assert (e.low, e.high, e.p, e.verdict) == (-100.0, 100.0, 1.0, "undecided")
    r = paired_log_ratio({"a": [2.0]}, {"a": [1.0]}, "total_loc")
    assert r.estimate == pytest.approx(-50.0)
    assert (r.low, r.high, r.p, r.verdict) == (-100.0, math.inf, 1.0, "undecided")
    assert not any(math.isnan(v) for v in (e.estimate, e.low, e.high, r.estimate, r.low, r.high))


def test_zero_spread_rate_is_decided_by_the_sign_test() -> None:
    tasks = [f"t{i}" for i in range(10)]
    e = paired_rate_diff({t: [0.0] for t in tasks}, {t: [1.0] for t in tasks})
    assert e.low == e.high == 100.0
    assert e.p == pytest.approx(2 / 2**10)
    assert e.verdict == "better"
    few = paired_rate_diff({t: [1.0] for t in tasks[:5]}, {t: [0.0] for t in tasks[:5]})
    assert (few.low, few.high) == (-100.0, 100.0)  # no point interval: 5 tasks cannot reach 5 %
    assert few.verdict == "undecided"  # 5 tasks all one way: p = 0.0625
    assert few.zero_spread


def test_zero_spread_ratio_is_decided_by_the_sign_test() -> None:
    tasks = [f"t{i}" for i in range(8)]
    e = paired_log_ratio({t: [4.0] for t in tasks}, {t: [2.0] for t in tasks}, "cost_usd")
    assert e.estimate == e.low == e.high == pytest.approx(-50.0)
    assert e.p == pytest.approx(2 / 2**8)
    assert e.verdict == "better"
    assert e.needed_tasks == 6
    same = paired_log_ratio({t: [3.0] for t in tasks}, {t: [3.0] for t in tasks}, "cost_usd")
    assert (same.estimate, same.p, same.verdict) == (0.0, 1.0, "undecided")


def test_decide_respects_direction() -> None:
    assert decide(1.0, 5.0, 0.01, lower_is_better=False) == "better"
    assert decide(1.0, 5.0, 0.01, lower_is_better=True) == "worse"
    assert decide(-5.0, -1.0, 0.01, lower_is_better=True) == "better"
    assert decide(-5.0, -1.0, 0.01, lower_is_better=False) == "worse"
    assert decide(-5.0, -1.0, 0.06, lower_is_better=False) == "undecided"  # test fails
    assert decide(-5.0, 1.0, 0.001, lower_is_better=False) == "undecided"  # interval holds 0


# --- verdicts over records -----------------------------------------------------------------


def record(task: str, arm: str, run: int, ok: bool, cost: float, **extra: Any) -> Record:
    rec: dict[str, Any] = {
        "task": task,
        "arm": arm,
        "model": "sonnet",
        "run": run,
        "valid": True,
        "correct": ok,
        "safe": True,
        "total_loc": 40,
        "cost_usd": cost,
        "input_tokens": 1000,
        "output_tokens": 200,
        "cache_read_tokens": 5000,
        "cache_write_tokens": 300,
        "duration_ms": 20_000,
    }
    rec.update(extra)
    return loaded(rec)


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


# --- regression gate -----------------------------------------------------------------------


def effect(metric: str, kind: str, low: float, high: float, lower: bool) -> Effect:
    return Effect(metric, kind, (low + high) / 2, low, high, 0.01, 0.01, 20, "undecided", 30, lower)


def test_parse_gate_aliases_and_signs() -> None:
    rules = parse_gate(" correct:-5pp, loc:+10% ,cost:20%,time:+15.5%,")
    assert [(r.metric, r.margin) for r in rules] == [
        ("correct", -5.0),
        ("total_loc", 10.0),
        ("cost_usd", 20.0),
        ("duration_ms", 15.5),
    ]
    assert parse_gate("") == []


@pytest.mark.parametrize(
    "bad",
    ["correct", "correct:-5", "correct:-5%", "loc:+10pp", "vibes:+1%", "cost:abc%", "loc:+10%%"],
)
def test_parse_gate_errors_name_the_rule(bad: str) -> None:
    with pytest.raises(ValueError, match=f"'{bad}'".replace("+", r"\+")):
        compare_gate([], f"pass:-1pp,{bad}")


def test_gate_fails_only_when_confidently_beyond_margin() -> None:
    rules = "correct:-5pp,loc:+10%,cost:+20%"
    fine = [
        effect("correct", "rate_diff", -8.0, 3.0, False),  # may be worse than -5: not confident
        effect("total_loc", "ratio", -30.0, -10.0, True),  # smaller code
        effect("cost_usd", "ratio", 5.0, 25.0, True),  # dearer, but not surely beyond +20 %
    ]
    assert compare_gate(fine, rules) == []
    bad = [
        effect("correct", "rate_diff", -30.0, -6.0, False),
        effect("total_loc", "ratio", 11.0, 40.0, True),
        effect("cost_usd", "ratio", 5.0, 25.0, True),
    ]
    assert compare_gate(bad, rules) == ["correct:-5pp", "loc:+10%"]
    unbounded = [effect("correct", "rate_diff", -math.inf, math.inf, False)]
    assert compare_gate(unbounded, rules) == []


def test_gate_on_real_verdicts() -> None:
    records = []
    for t in range(12):
        records.append(record(f"t{t}", "baseline", 0, True, 1.0))
        records.append(record(f"t{t}", "bloat", 0, t % 2 == 0, 2.0 + 0.1 * t))
    (row,) = verdicts(records)
    assert compare_gate(row["effects"], "correct:-5pp,cost:+20%,loc:+10%") == [
        "correct:-5pp",
        "cost:+20%",
    ]


def test_a_negligible_change_is_never_decided() -> None:
    """One extra token per task with no spread is 'significant' but not worth a verdict."""
    from pytest_ponybench.analysis.stats import UNDECIDED, decide, is_negligible

    assert is_negligible(0.01, 0.02) and not is_negligible(0.5, 1.5)
    assert decide(0.01, 0.02, 1e-9, lower_is_better=True) == UNDECIDED
    assert decide(0.5, 1.5, 1e-9, lower_is_better=True) == "worse"
    base = {f"t{i}": [1000.0] for i in range(12)}
    arm = {f"t{i}": [1000.0 + 1 + (i % 2)] for i in range(12)}
    effect = paired_log_ratio(base, arm, "tokens")
    assert effect.low > 0 and effect.verdict == UNDECIDED
