"""Tests for `analysis/stats/effects.py`: paired rate differences and log ratios, the decided word.

Oracle values come from scipy 1.17.1 and statsmodels 0.15.0 (throwaway venv), computed on
2026-11-29; the call that produced each one sits next to it.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from pytest_ponybench.analysis.stats.distributions import newcombe
from pytest_ponybench.analysis.stats.effects import decide, paired_log_ratio, paired_rate_diff

ABS = 1e-6


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


def test_zero_spread_rate_is_decided_by_the_sign_test_with_newcombes_interval() -> None:
    tasks = [f"t{i}" for i in range(10)]
    e = paired_rate_diff({t: [0.0] for t in tasks}, {t: [1.0] for t in tasks})
    # Newcombe's interval for 10/10 against 0/10 (his Table II, example h): 0.6075 to 1.
    assert (e.low, e.high) == pytest.approx((60.75, 100.0), abs=0.01)
    assert e.p == pytest.approx(2 / 2**10)
    assert e.verdict == "better" and e.cells == (10.0, 10, 0.0, 10)
    few = paired_rate_diff({t: [1.0] for t in tasks[:5]}, {t: [0.0] for t in tasks[:5]})
    assert few.low == -100.0 and -100.0 < few.high < 0  # no point interval, whatever the task count
    assert few.verdict == "undecided"  # 5 tasks all one way: the sign test's p = 0.0625 decides
    assert few.zero_spread


@pytest.mark.parametrize("tasks", [4, 6, 20])
def test_every_task_tied_is_the_cells_binomial_noise_never_a_point(tasks: int) -> None:
    """Every cell failing on both arms: no point interval [0, 0] and never negligible, at 4
    tasks as at 6 (which once gave [-100, +100] and [+0.0, +0.0])."""
    names = [f"t{i}" for i in range(tasks)]
    e = paired_rate_diff({t: [0.0] for t in names}, {t: [0.0] for t in names})
    ci = newcombe(0, tasks, 0, tasks)
    assert (e.low, e.high) == pytest.approx((100 * ci.low, 100 * ci.high))
    assert e.low < -10 and e.high > 10 and e.tied and e.verdict == "undecided"
    ten = paired_rate_diff(
        {t: [0.0] for t in [f"t{i}" for i in range(10)]}, {f"t{i}": [0.0] for i in range(10)}
    )
    assert (ten.low, ten.high) == pytest.approx((-27.75, 27.75), abs=0.01)  # 0/10 against 0/10


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
