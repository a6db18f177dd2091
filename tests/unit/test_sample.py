"""Tests for `analysis/stats/sample.py`: per-task means, the clustered SE, the t-interval.

Oracle values come from scipy 1.17.1 and statsmodels 0.15.0 (throwaway venv), computed on
2026-11-29; the call that produced each one sits next to it.
"""

from __future__ import annotations

import math

import pytest

from pytest_ponybench.analysis.stats.distributions import Interval
from pytest_ponybench.analysis.stats.sample import clustered_mean_se, t_interval, task_means

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
