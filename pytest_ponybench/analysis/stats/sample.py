"""The task as the unit of analysis: a task's runs averaged, then the tasks as the sample.

Runs of one task share the prompt, the fixture and the scorer, so they are not independent
observations; every estimate first averages the runs of a task. Here: those means, the
clustered standard error, a sample's sd and t-interval, and the paired t-test's p over the
per-task differences (the exact sign test where they have no spread). Overflow-safe: values
near the float range (1e308) give a finite mean or none, never an OverflowError.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from pytest_ponybench.analysis.stats.distributions import (
    MIN_SIGN_TASKS,
    Z_975,
    Interval,
    sign_tasks,
    sign_test_p,
    t_quantile,
    t_two_sided_p,
    wilson,
)

__all__ = [
    "clustered_mean_se",
    "finite_mean",
    "paired_t_p",
    "sample_mean",
    "sample_sd",
    "square",
    "t_interval",
    "task_means",
    "task_rate",
]


def sample_mean(values: Sequence[float]) -> float:
    n = len(values)
    total = sum(values)
    # Summed as v / n only where the plain sum overflows (values near 1e308): exact otherwise.
    return total / n if math.isfinite(total) else sum(v / n for v in values)


def square(x: float) -> float:
    # x * x, not x ** 2: a float power raises OverflowError past 1e154, a product gives inf.
    return x * x


def sample_sd(values: Sequence[float], mean: float) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    ss = sum(square(v - mean) for v in values)
    # Differences that are equal up to float noise (e.g. 0.1 + 0.2) count as zero spread, so the
    # degenerate branch is taken deterministically.
    scale = max(1.0, max(abs(v) for v in values))
    if ss <= square(1e-12 * scale) * n:
        return 0.0
    return math.sqrt(ss / (n - 1))


def finite_mean(values: Sequence[float]) -> float | None:
    """The mean, or None when it is not a finite number (values near the float range, 1e308,
    are summed without overflowing on the way)."""
    if not values:
        return None
    mean = sample_mean(values)
    return mean if math.isfinite(mean) else None


def task_means(values_by_task: Mapping[str, Sequence[float]]) -> dict[str, float]:
    """Mean over each task's runs; tasks without runs, or whose mean is not finite, are dropped
    rather than counted as 0."""
    return {task: mean for task, vals in values_by_task.items() if (mean := finite_mean(vals)) is not None}


def task_rate(
    values_by_task: Mapping[str, Sequence[float]], confidence: float = 0.95
) -> tuple[float, Interval]:
    """A rate over the population of tasks like these (a rate of 0/1 or [0, 1] values): the mean
    of the per-task means and Wilson's interval at the effective number of cells the spread
    between tasks leaves (Kish: p(1 - p) over the squared standard error of the task means),
    which lies between the tasks and the cells, with Student's t for the tasks' own count
    (the spread is estimated from them). Runs of one task share its difficulty, so Wilson's
    interval over the cells covers the task population too seldom (83-87 % at 10 runs in the
    simulator); with no spread between tasks the tasks alone are the count."""
    means = list(task_means(values_by_task).values())
    tasks = len(means)
    if not tasks:
        return 0.0, Interval(0.0, 1.0)
    z = t_quantile(0.5 + confidence / 2.0, tasks - 1) if tasks > 1 else Z_975
    cells = sum(len(v) for v in values_by_task.values())
    p = min(1.0, max(0.0, sample_mean(means)))
    var = sample_sd(means, p) ** 2 / tasks if tasks > 1 else 0.0
    n = float(tasks)
    if var > 0.0 and 0.0 < p < 1.0:
        n = min(float(cells), max(n, p * (1.0 - p) / var))
    return p, wilson(p * n, n, z)


def clustered_mean_se(values_by_task: Mapping[str, Sequence[float]]) -> tuple[float, float]:
    """Mean over all runs and its standard error clustered by task, with the C/(C-1)
    small-sample correction. Runs of one task are correlated, so the naive SE would overstate
    precision. No runs gives (0.0, inf); one task gives an infinite SE (no between-task spread)."""
    clusters = [list(vals) for vals in values_by_task.values() if len(vals) > 0]
    n = sum(len(c) for c in clusters)
    if n == 0:
        return 0.0, math.inf
    mean = sum(sum(c) for c in clusters) / n
    c_count = len(clusters)
    if c_count < 2:
        return mean, math.inf
    score = sum(square(sum(v - mean for v in c)) for c in clusters)
    var = c_count / (c_count - 1) * score / (n * n)
    return mean, math.sqrt(var)


def t_interval(
    values: Sequence[float], confidence: float = 0.95, *, tails: tuple[float, float] | None = None
) -> tuple[float, Interval]:
    """Mean and t-interval of a sample (here: per-task differences). Fewer than 2 values give an
    unbounded interval; zero spread gives the sign test's interval (see the package docstring).
    `tails`: the chance left below the low end and above the high end of an interval that is
    not symmetric (a directional test's); by default (1 - confidence) / 2 each."""
    low_tail, high_tail = tails if tails is not None else ((1.0 - confidence) / 2.0,) * 2
    n = len(values)
    if n == 0:
        return 0.0, Interval(-math.inf, math.inf)
    mean = sample_mean(values)
    if n < 2:
        return mean, Interval(-math.inf, math.inf)
    sd = sample_sd(values, mean)
    if sd == 0.0:
        # The sign test's own interval: none below the tasks it needs at this confidence (6 at
        # 95 %, more for a sequential look's stricter level).
        if n < max(MIN_SIGN_TASKS, sign_tasks(2.0 * min(low_tail, high_tail))):
            return mean, Interval(-math.inf, math.inf)
        return mean, Interval(mean, mean)
    se = sd / math.sqrt(n)
    return mean, Interval(
        mean - t_quantile(1.0 - low_tail, n - 1) * se, mean + t_quantile(1.0 - high_tail, n - 1) * se
    )


def paired_t_p(values: Sequence[float]) -> float:
    """Two-sided p of the paired t-test (mean of per-task differences is 0); the exact sign
    test when there is no spread, 1.0 below two tasks."""
    n = len(values)
    if n < 2:
        return 1.0
    mean = sample_mean(values)
    sd = sample_sd(values, mean)
    if sd == 0.0:
        return sign_test_p(sum(1 for v in values if v > 0), sum(1 for v in values if v < 0))
    return t_two_sided_p(mean / (sd / math.sqrt(n)), n - 1)
