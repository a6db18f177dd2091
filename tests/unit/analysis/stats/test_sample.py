"""Tests for `analysis/stats/sample.py`: per-task means, the clustered SE, the t-interval.

Oracle values come from scipy 1.17.1 and statsmodels 0.15.0 (throwaway venv), computed on
2026-11-29; the call that produced each one sits next to it.
"""

from __future__ import annotations

import math

import pytest

from pytest_ponybench.analysis.stats.distributions import Interval, wilson
from pytest_ponybench.analysis.stats.sample import clustered_mean_se, t_interval, task_means, task_rate

ABS = 1e-6

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


def test_the_rate_over_tasks_counts_what_the_spread_between_tasks_leaves() -> None:
    # Task means 1, 2/3, 0, 2/3: p = 7/12, their sample variance 0.175926, so the effective
    # cells are p (1 - p) / (0.175926 / 4) = 5.5264, between the 4 tasks and the 12 cells; the
    # quantile is Student's t at 3 degrees of freedom (scipy.stats.t.ppf(0.975, 3) = 3.182446).
    rate, ci = task_rate(CLUSTER_EXAMPLE)
    assert rate == pytest.approx(7 / 12)
    n = 5.526316
    expected = wilson(7 / 12 * n, n, 3.182446)
    assert (ci.low, ci.high) == pytest.approx((expected.low, expected.high), abs=1e-5)
    # Wider than Wilson over the 12 cells, which holds for these four tasks alone.
    cells = wilson(7, 12)
    assert ci.low < cells.low and ci.high > cells.high


def test_the_rate_over_tasks_without_spread_counts_the_tasks() -> None:
    # Every task failed every run: the cells (30) would claim 0-11 %; the tasks (10) say 0-26 %
    # (Wilson on 0 of 10 at t with 9 degrees of freedom, 2.262157).
    rate, ci = task_rate({f"t{i}": [0.0, 0.0, 0.0] for i in range(10)})
    assert rate == 0.0 and ci.low == 0.0
    assert ci.high == pytest.approx(wilson(0, 10, 2.262157).high, abs=1e-6)
    assert task_rate({}) == (0.0, Interval(0.0, 1.0))


def test_an_interval_with_tails_of_its_own() -> None:
    # A directional interval: 4.4 % below, 0.6 % above, each end at its own t quantile.
    values = [0.1, 0.3, 0.2, 0.4, 0.0, 0.25]
    mean, ci = t_interval(values, tails=(0.05 * 8 / 9, 0.05 / 9))
    _, sym = t_interval(values)
    assert mean == pytest.approx(0.2083333, abs=ABS)
    assert sym.low < ci.low < mean < sym.high < ci.high
