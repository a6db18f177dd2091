"""The power hint: how many tasks, or runs per task, would settle an undecided effect.

The hint is the verdict's own test, the paired t-test over tasks, at the level the hypothesis
is tested at in its family (alpha times its weight): the tasks that give it 80 % power for a
10-point difference in a rate or a 10 % change in a ratio, and, where run-to-run noise is
enough of the spread that more runs can get there, the runs per task that would do it on the
tasks there are. `Spread` is what an effect keeps of its data for this.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pytest_ponybench.analysis.stats.distributions import (
    ALPHA,
    MIN_SIGN_TASKS,
    normal_cdf,
    normal_upper_quantile,
    sign_tasks,
    t_quantile,
)

__all__ = [
    "MAX_HINT_RUNS",
    "MAX_HINT_TASKS",
    "POWER",
    "RATE_RESOLVE",
    "RATIO_RESOLVE",
    "Spread",
    "needed_runs",
    "needed_tasks",
    "t_power",
]

POWER = 0.80
RATE_RESOLVE = 0.10  # power hint: a 10 percentage-point difference in a rate
RATIO_RESOLVE = 0.10  # power hint: a 10 % change in a ratio metric
MAX_HINT_TASKS = 10_000
MAX_HINT_RUNS = 30


@dataclass(frozen=True)
class Spread:
    """What the power hint needs: the sd of the per-task differences, the part of their
    variance that is run-to-run noise at the current runs per task (None with one run), and
    those runs."""

    sd: float
    within_var: float | None
    runs: float


def t_power(n: int, delta: float, sd: float, alpha: float = ALPHA) -> float:
    """Power of the two-sided paired t-test at level alpha with n tasks, a true mean difference
    delta and a per-task sd: the noncentral t tail by its normal approximation (Johnson & Kotz),
    within about a point of the exact value from 5 degrees of freedom on."""
    if n < 2:
        return 0.0
    if sd <= 0.0:
        return 1.0 if n >= sign_tasks(alpha) else 0.0
    df = n - 1
    crit = t_quantile(1.0 - alpha / 2.0, df)
    ncp = abs(delta) * math.sqrt(n) / sd
    scale = math.sqrt(1.0 + crit * crit / (2.0 * df))
    shrink = 1.0 - 1.0 / (4.0 * df)
    return normal_cdf((ncp - crit * shrink) / scale) + normal_cdf((-ncp - crit * shrink) / scale)


def needed_tasks(sd: float, delta: float, alpha: float = ALPHA) -> int | None:
    """Paired tasks that give the t-test 80 % power at two-sided level alpha (the Holm level of
    the family: alpha / family size) for a true mean difference delta, given the per-task
    difference sd. None past MAX_HINT_TASKS or when the sd is not a finite number. With no
    spread, the sign test's minimum."""
    if not math.isfinite(sd) or not math.isfinite(delta) or delta == 0.0:
        return None
    if sd <= 0.0:
        return max(MIN_SIGN_TASKS, sign_tasks(alpha))
    z_a = normal_upper_quantile(alpha / 2.0)
    n = max(2, math.ceil(((z_a + 0.841621) * sd / delta) ** 2))
    while t_power(n, delta, sd, alpha) < POWER:
        n += 1
        if n > MAX_HINT_TASKS:
            return None
    return n


def needed_runs(spread: Spread, delta: float, n_tasks: int, alpha: float) -> int | None:
    """Runs per task that give 80 % power on the n_tasks there are, when run noise is a large
    enough part of the spread that more runs can get there; None when they cannot (the tasks
    disagree with each other more than runs can average away) or it is not known (one run)."""
    if spread.within_var is None or n_tasks < 2:
        return None
    if not (math.isfinite(spread.sd) and math.isfinite(spread.within_var)):
        return None
    between = max(0.0, spread.sd**2 - spread.within_var)
    for runs in range(math.ceil(spread.runs) + 1, MAX_HINT_RUNS + 1):
        var = between + spread.within_var * spread.runs / runs
        if t_power(n_tasks, delta, math.sqrt(var), alpha) >= POWER:
            return runs
    return None
