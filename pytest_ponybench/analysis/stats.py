"""Paired arm-vs-baseline statistics: pure functions, standard library only.

The task is the unit of analysis. Runs of one task share the prompt, the fixture and the
scorer, so they are not independent observations: every estimate here first averages the runs of
a task and then treats tasks as the sample. Arm and baseline are paired by task, which removes
the (large) task-to-task difficulty spread from the comparison.

One decision rule for every metric: the paired t-test over tasks. Its 95 % t-interval is the
interval shown, its p (adjusted over the family by the weighted Holm procedure of
`procedure.py`) decides, and the power hint is the same test's power at the hypothesis's level.
The exact sign test it replaced dropped tied tasks (a third of them at 3 runs) and ignored how
far each task moved; at a nominal 5 % its real size was 1-3 %.

Units: a rate difference (`kind="rate_diff"`) is in percentage points, a ratio (`kind="ratio"`)
is a % change (-20.0 means the arm uses 20 % less). No change is 0.0 in both.

The primary metric (pass unless declared) is tested first at most of the block's level; the
secondaries (loc, cost, tokens, time, and score where graders give one) share the rest; the
family is every arm of one model, or every arm and model of the run (`procedure.py`).
`correct` and `safe` are shown as the breakdown of pass (which axis moved) but not tested on
their own: pass is their conjunction, so testing all three asks one question three times and
costs every other metric power.

Missing cells are bounded: where an arm's share of invalid cells differs from the baseline's,
the pass verdict is also computed with the arm's invalid cells counted as failures and the
baseline's as passes (and the reverse), and a direction is decided only where that bound
agrees; the interval shown spans the three.

Degenerate inputs never raise and never produce NaN:
- no paired task: estimate 0.0, an unbounded interval, p 1.0, "undecided";
- one paired task: the estimate is that task's difference, an unbounded interval because a
  spread cannot be estimated from one point, p 1.0, "undecided". Unbounded means each kind's own
  range: (-100, 100) pp for a rate difference, (-100 %, inf) for a ratio;
- zero spread (every task moved by exactly the same amount): a t statistic of d/0 is not
  evidence and a point interval is not an interval. The test is then the exact sign test and the
  interval the sign test's own (the distribution-free interval of the median, order statistics):
  unbounded below 6 tasks, where no sign test can reach 5 %, the common value from 6 on.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict

from pytest_ponybench.analysis import procedure
from pytest_ponybench.analysis.procedure import Family
from pytest_ponybench.analysis.reliability import Reliability
from pytest_ponybench.analysis.reliability import per_arm as reliability_per_arm
from pytest_ponybench.core.records import (
    TOKEN_FIELDS,
    Record,
    is_scored,
    is_valid,
    latest,
    passed,
    reached_outside,
)
from pytest_ponybench.core.records import flag as record_flag
from pytest_ponybench.core.records import number as record_number

__all__ = [
    "ALPHA",
    "ArmVerdict",
    "BETTER",
    "BOUNDED",
    "BREAKDOWN",
    "Bound",
    "Effect",
    "FAIL",
    "FAMILY",
    "GateRule",
    "INVALID_GAP",
    "Interval",
    "LIMITS",
    "MAX_HINT_RUNS",
    "MAX_HINT_TASKS",
    "METRIC_ALIASES",
    "MIN_SIGN_TASKS",
    "MISSING_WHY",
    "NEGLIGIBLE",
    "PASS",
    "POWER",
    "PRIMARY",
    "RATE_METRICS",
    "RATE_RESOLVE",
    "RATIO_METRICS",
    "RATIO_RESOLVE",
    "SCORE",
    "SHORT_NAMES",
    "Spread",
    "UNDECIDED",
    "UNTESTED",
    "WORSE",
    "Z_975",
    "adjust",
    "bad_number",
    "betainc",
    "bound",
    "bounded",
    "canonical_metric",
    "clustered_mean_se",
    "compare_gate",
    "decide",
    "finite_mean",
    "gate_outcome",
    "has_scores",
    "holm",
    "is_negligible",
    "judge_number",
    "metric_value",
    "needed_runs",
    "needed_tasks",
    "paired_log_ratio",
    "paired_rate_diff",
    "paired_t_p",
    "parse_gate",
    "sign_tasks",
    "sign_test_p",
    "t_interval",
    "t_power",
    "t_quantile",
    "t_two_sided_p",
    "task_means",
    "tested_metrics",
    "verdicts",
    "wilson",
    "with_p_adj",
]

ALPHA = procedure.ALPHA
Z_975 = 1.959964  # standard normal 0.975 quantile, the two-sided 95 % z
POWER = 0.80
RATE_RESOLVE = 0.10  # power hint: a 10 percentage-point difference in a rate
RATIO_RESOLVE = 0.10  # power hint: a 10 % change in a ratio metric
# The exact two-sided sign test cannot reach p < 0.05 with fewer than 6 tasks (2 / 2**5 > 0.05);
# below that a zero-spread interval stays unbounded.
MIN_SIGN_TASKS = 6
MAX_HINT_TASKS = 10_000
MAX_HINT_RUNS = 30
# An arm whose share of invalid cells differs from the baseline's by more than this gets a
# warning: the cells left out may not be a random sample of its work.
INVALID_GAP = 0.10

RATE_METRICS = ("pass", "correct", "safe")
SCORE = "score"  # the graders' continuous score in [0, 1]: a rate, shown only where cells carry one
RATIO_METRICS = ("total_loc", "cost_usd", "tokens", "duration_ms")
FAMILY = ("pass", *RATIO_METRICS)  # tested by default: the primary and the secondaries
BREAKDOWN = ("correct", "safe")  # shown as pass's breakdown, not tested on their own
PRIMARY = "pass"
BOUNDED = ("pass", SCORE)  # rates whose missing cells have a worst case (0) and a best case (1)
# Short names people type in gate rules.
METRIC_ALIASES = {
    "loc": "total_loc",
    "cost": "cost_usd",
    "time": "duration_ms",
    "duration": "duration_ms",
}
SHORT_NAMES = {"total_loc": "loc", "cost_usd": "cost", "duration_ms": "time"}

BETTER = "better"
WORSE = "worse"
UNDECIDED = "undecided"


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


@dataclass(frozen=True)
class Spread:
    """What the power hint needs: the sd of the per-task differences, the part of their
    variance that is run-to-run noise at the current runs per task (None with one run), and
    those runs."""

    sd: float
    within_var: float | None
    runs: float


@dataclass(frozen=True)
class Effect:
    """One metric of one arm against the baseline, paired by task.

    `p_adj` is None until a multiplicity adjustment has been applied; `verdict` is then based on
    the raw `p`. `needed_tasks` is the total number of paired tasks (not the number still to add)
    that gives 80 % power for a 10-point / 10 % difference at the hypothesis's first-step level
    in the family's procedure (`level`: alpha times its weight), at the current runs per task;
    `needed_runs` the runs per task that would do it on the tasks there are (None when runs
    cannot: the tasks disagree more than runs average). `tested` is False for a breakdown metric
    (correct, safe): shown, never decided. `primary`: the block's pre-declared primary metric.
    `zero_spread`: every task moved by the same amount, so the sign test decided.
    """

    metric: str
    kind: str
    estimate: float
    low: float
    high: float
    p: float
    p_adj: float | None
    n_tasks: int
    verdict: str
    needed_tasks: int | None
    lower_is_better: bool = False
    tested: bool = True
    zero_spread: bool = False
    level: float = ALPHA
    needed_runs: int | None = None
    spread: Spread | None = None
    primary: bool = False


@dataclass(frozen=True)
class Bound:
    """The primary rate with its missing cells filled in both extreme ways.

    `worst`: the arm's invalid cells counted as failures (score 0) and the baseline's as passes
    (1); `best`: the reverse. `valid`: the effect on the valid cells alone. A direction is decided
    only where the bound on that side agrees (better needs `worst`, worse needs `best`)."""

    metric: str
    arm_invalid: int
    arm_cells: int
    base_invalid: int
    base_cells: int
    valid: Effect
    worst: Effect
    best: Effect


class ArmVerdict(TypedDict):
    model: str
    arm: str
    baseline: str
    effects: list[Effect]
    notes: list[str]  # cells and tasks left out, arms without valid cells, invalid-rate gaps
    primary: str
    family: Family
    bounds: list[Bound]  # pass (and score) where the arm's and the baseline's invalid shares differ
    reliability: dict[str, Reliability]  # arm and baseline (k >= 2 runs only)
    twin: bool  # the arm's content hash is the baseline's: an A/A, the run's measured floor


# --- distributions -------------------------------------------------------------------------


def wilson(successes: int, n: int, z: float = Z_975) -> Interval:
    """Wilson score interval for a rate; unlike the Wald interval it stays inside [0, 1] and
    does not collapse to a point at 0/n or n/n, which small benchmark samples hit all the time."""
    if n <= 0:
        return Interval(0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} outside 0..{n}")
    phat = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (phat + z2 / (2 * n)) / denom
    half = z * math.sqrt(phat * (1 - phat) / n + z2 / (4 * n * n)) / denom
    # Exact 0 and 1 at the edges rather than 1e-17 rounding residue.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(low, high)


def _betacf(a: float, b: float, x: float) -> float:
    # Continued fraction for the incomplete beta (modified Lentz); converges fast for
    # x < (a + 1) / (a + b + 2), which the caller guarantees via the symmetry relation.
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student t with df degrees of freedom; 1.0 for a t that is not a
    number (0 / 0: no evidence)."""
    if math.isnan(t):
        return 1.0
    if math.isinf(t):
        return 0.0
    return min(1.0, betainc(df / 2.0, 0.5, df / (df + t * t)))


@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: int) -> float:
    """Student t quantile by bisection on the upper tail.

    Bisecting on the tail 0.5 * I_x(df/2, 1/2) rather than on the CDF keeps full relative
    precision for p close to 1, where 1 - CDF would cancel.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if df < 1:
        raise ValueError(f"df must be >= 1, got {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    tail = 1.0 - p

    def upper_tail(t: float) -> float:
        return 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))

    lo, hi = 0.0, 1.0
    while upper_tail(hi) > tail:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if upper_tail(mid) > tail:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * hi:
            break
    return 0.5 * (lo + hi)


def sign_test_p(wins: int, losses: int) -> float:
    """Exact two-sided binomial(0.5) test on the discordant tasks (McNemar's exact test when
    every task has one run). Ties carry no information about direction and are not counted."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    # Integer arithmetic so hundreds of tasks do not underflow 0.5**n term by term.
    tail = sum(math.comb(n, i) for i in range(k + 1))
    return min(1.0, 2 * tail / (1 << n))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values, in the input order; controls the family-wise error
    without assuming the arms' and metrics' tests are independent (they share tasks)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


# --- task-level summaries --------------------------------------------------------------------


def finite_mean(values: Sequence[float]) -> float | None:
    """The mean, or None when it is not a finite number (values near the float range, 1e308,
    are summed without overflowing on the way)."""
    if not values:
        return None
    mean = _sample_mean(values)
    return mean if math.isfinite(mean) else None


def task_means(values_by_task: Mapping[str, Sequence[float]]) -> dict[str, float]:
    """Mean over each task's runs; tasks without runs, or whose mean is not finite, are dropped
    rather than counted as 0."""
    return {task: mean for task, vals in values_by_task.items() if (mean := finite_mean(vals)) is not None}


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
    score = sum(_square(sum(v - mean for v in c)) for c in clusters)
    var = c_count / (c_count - 1) * score / (n * n)
    return mean, math.sqrt(var)


def t_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, Interval]:
    """Mean and t-interval of a sample (here: per-task differences). Fewer than 2 values give an
    unbounded interval; zero spread gives the sign test's interval (see the module docstring)."""
    n = len(values)
    if n == 0:
        return 0.0, Interval(-math.inf, math.inf)
    mean = _sample_mean(values)
    if n < 2:
        return mean, Interval(-math.inf, math.inf)
    sd = _sd(values, mean)
    if sd == 0.0:
        # The sign test's own interval: none below the tasks it needs at this confidence (6 at
        # 95 %, more for a sequential look's stricter level).
        if n < max(MIN_SIGN_TASKS, sign_tasks(1.0 - confidence)):
            return mean, Interval(-math.inf, math.inf)
        return mean, Interval(mean, mean)
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * sd / math.sqrt(n)
    return mean, Interval(mean - half, mean + half)


def _sample_mean(values: Sequence[float]) -> float:
    n = len(values)
    total = sum(values)
    # Summed as v / n only where the plain sum overflows (values near 1e308): exact otherwise.
    return total / n if math.isfinite(total) else sum(v / n for v in values)


def _square(x: float) -> float:
    # x * x, not x ** 2: a float power raises OverflowError past 1e154, a product gives inf.
    return x * x


def _sd(values: Sequence[float], mean: float) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    ss = sum(_square(v - mean) for v in values)
    # Differences that are equal up to float noise (e.g. 0.1 + 0.2) count as zero spread, so the
    # degenerate branch is taken deterministically.
    scale = max(1.0, max(abs(v) for v in values))
    if ss <= _square(1e-12 * scale) * n:
        return 0.0
    return math.sqrt(ss / (n - 1))


def paired_t_p(values: Sequence[float]) -> float:
    """Two-sided p of the paired t-test (mean of per-task differences is 0); the exact sign
    test when there is no spread, 1.0 below two tasks."""
    n = len(values)
    if n < 2:
        return 1.0
    mean = _sample_mean(values)
    sd = _sd(values, mean)
    if sd == 0.0:
        return sign_test_p(sum(1 for v in values if v > 0), sum(1 for v in values if v < 0))
    return t_two_sided_p(mean / (sd / math.sqrt(n)), n - 1)


def _norm_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


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
    return _norm_cdf((ncp - crit * shrink) / scale) + _norm_cdf((-ncp - crit * shrink) / scale)


def sign_tasks(alpha: float = ALPHA) -> int:
    """The fewest tasks, all moving one way, with which the exact sign test reaches alpha."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    n = 1
    while 2.0 / 2**n >= alpha:
        n += 1
    return n


def needed_tasks(sd: float, delta: float, alpha: float = ALPHA) -> int | None:
    """Paired tasks that give the t-test 80 % power at two-sided level alpha (the Holm level of
    the family: alpha / family size) for a true mean difference delta, given the per-task
    difference sd. None past MAX_HINT_TASKS or when the sd is not a finite number. With no
    spread, the sign test's minimum."""
    if not math.isfinite(sd) or not math.isfinite(delta) or delta == 0.0:
        return None
    if sd <= 0.0:
        return max(MIN_SIGN_TASKS, sign_tasks(alpha))
    z_a = -_z_quantile(alpha / 2.0)
    n = max(2, math.ceil(((z_a + 0.841621) * sd / delta) ** 2))
    while t_power(n, delta, sd, alpha) < POWER:
        n += 1
        if n > MAX_HINT_TASKS:
            return None
    return n


def _z_quantile(p: float) -> float:
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _norm_cdf(mid) < p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


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


# --- verdicts ----------------------------------------------------------------------------------


# A change whose whole interval lies within this many points (rates) or percent (ratios) of
# no change is too small to matter: one extra token per task is "significant" with no spread,
# and calling that "worse" would mislead.
NEGLIGIBLE = 1.0


def is_negligible(low: float, high: float) -> bool:
    return -NEGLIGIBLE < low and high < NEGLIGIBLE


def decide(low: float, high: float, p: float, lower_is_better: bool, alpha: float = ALPHA) -> str:
    """Decided when the test rejects and the change is not negligible. The interval is the same
    test's, so a rejection at 5 % or less means it excludes no change; the check stays as a
    guard for callers that pass their own numbers."""
    if not p < alpha or is_negligible(low, high):
        return UNDECIDED
    if low > 0.0:
        return WORSE if lower_is_better else BETTER
    if high < 0.0:
        return BETTER if lower_is_better else WORSE
    return UNDECIDED


def _delta(kind: str) -> float:
    return RATE_RESOLVE if kind == "rate_diff" else math.log1p(RATIO_RESOLVE)


def with_p_adj(
    effect: Effect, p_adj: float, family_size: int = 1, *, level: float | None = None, alpha: float = ALPHA
) -> Effect:
    """The effect re-decided with a multiplicity-adjusted p-value (decided where p_adj < alpha),
    its power hint at `level`: the hypothesis's first-step level in the weighted procedure
    (alpha times its weight), or, without one, alpha / `family_size` (plain Holm's first step)."""
    if not effect.tested:
        return replace(effect, p_adj=None, verdict=UNDECIDED)
    verdict = decide(effect.low, effect.high, p_adj, effect.lower_is_better, alpha)
    if level is None:
        level = alpha / max(1, family_size)
    need: int | None = None
    runs: int | None = None
    if effect.spread is not None and effect.n_tasks >= 2:
        delta = _delta(effect.kind)
        need = needed_tasks(effect.spread.sd, delta, level)
        # Tasks take authoring; runs only cells. Where runs on the tasks there are can get there
        # (run noise, not task-to-task disagreement, is the spread), say how many.
        runs = needed_runs(effect.spread, delta, effect.n_tasks, level)
    return replace(effect, p_adj=p_adj, verdict=verdict, level=level, needed_tasks=need, needed_runs=runs)


def _paired(
    base: Mapping[str, Sequence[float]], arm: Mapping[str, Sequence[float]]
) -> list[tuple[str, float, float]]:
    b, a = task_means(base), task_means(arm)
    return [(t, b[t], a[t]) for t in sorted(b.keys() & a.keys())]


def _within_var(
    base: Mapping[str, Sequence[float]],
    arm: Mapping[str, Sequence[float]],
    tasks: Sequence[str],
    transform: Any = None,
) -> tuple[float | None, float]:
    """Run-to-run variance of the task-mean difference (the mean over tasks of s_a^2/r_a +
    s_b^2/r_b, on the log scale via the delta method for ratios) and the mean runs per task."""
    parts: list[float] = []
    runs: list[float] = []
    for t in tasks:
        var = 0.0
        for side in (base[t], arm[t]):
            r = len(side)
            runs.append(r)
            if r < 2:
                return None, _mean(runs)
            m = sum(v / r for v in side)
            s2 = sum(_square(v - m) for v in side) / (r - 1)
            var += s2 / r / (m * m if transform == "log" and m > 0 else 1.0)
        parts.append(var)
    return (_mean(parts) if parts else None), _mean(runs)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def paired_rate_diff(
    base: Mapping[str, Sequence[float]],
    arm: Mapping[str, Sequence[float]],
    metric: str = "pass",
    confidence: float = 0.95,
) -> Effect:
    """Arm minus baseline rate, in percentage points: the mean of per-task differences, the
    paired t-test and its t-interval over tasks (at `confidence`: 95 % unless a sequential look
    asks for its own)."""
    pairs = _paired(base, arm)
    diffs = [a - b for _, b, a in pairs]
    mean, ci = t_interval(diffs, confidence)
    p = paired_t_p(diffs)
    # A difference of rates cannot leave [-100, 100] pp; clip the t-interval's tails to that.
    low = max(-100.0, 100.0 * ci.low)
    high = min(100.0, 100.0 * ci.high)
    sd = _sd(diffs, mean)
    spread = None
    if len(diffs) >= 2:
        within, runs = _within_var(base, arm, [t for t, _, _ in pairs])
        spread = Spread(sd=sd, within_var=within, runs=runs)
    tested = metric not in BREAKDOWN
    return Effect(
        metric=metric,
        kind="rate_diff",
        estimate=100.0 * mean,
        low=low,
        high=high,
        p=p,
        p_adj=None,
        n_tasks=len(diffs),
        verdict=decide(low, high, p, lower_is_better=False) if tested else UNDECIDED,
        needed_tasks=needed_tasks(sd, RATE_RESOLVE) if spread else None,
        lower_is_better=False,
        tested=tested,
        zero_spread=len(diffs) >= 2 and sd == 0.0,
        spread=spread,
    )


# exp() of more than this overflows a float: such a ratio is shown as +inf %.
_MAX_LOG = math.log(1e300)


def _pct(log_ratio: float) -> float:
    if math.isnan(log_ratio):
        return 0.0
    if log_ratio >= _MAX_LOG:
        return math.inf
    if log_ratio == -math.inf:
        return -100.0
    return 100.0 * math.expm1(log_ratio)


def _log_ratio(a: float, b: float) -> float:
    # log(a) - log(b), not log(a / b): 1e308 / 0.1 overflows to inf, 5e-324 / 1e308 underflows to 0.
    return math.log(a) - math.log(b)


def paired_log_ratio(
    base: Mapping[str, Sequence[float]],
    arm: Mapping[str, Sequence[float]],
    metric: str,
    lower_is_better: bool = True,
    confidence: float = 0.95,
) -> Effect:
    """Arm / baseline as a % change: exp(mean per-task log ratio), the paired t-test and its
    interval on the log scale. Log ratios make a halving and a doubling symmetric and stop one
    huge task from dominating. Tasks where either side's mean is <= 0 have no ratio: `verdicts`
    keeps such values out beforehand and says so."""
    pairs = [(t, b, a) for t, b, a in _paired(base, arm) if a > 0 and b > 0]
    logs = [_log_ratio(a, b) for _, b, a in pairs]
    mean, ci = t_interval(logs, confidence)
    sd = _sd(logs, mean)
    p = paired_t_p(logs)
    low, high = _pct(ci.low), _pct(ci.high)
    spread = None
    if len(logs) >= 2:
        within, runs = _within_var(base, arm, [t for t, _, _ in pairs], transform="log")
        spread = Spread(sd=sd, within_var=within, runs=runs)
    return Effect(
        metric=metric,
        kind="ratio",
        estimate=_pct(mean),
        low=low,
        high=high,
        p=p,
        p_adj=None,
        n_tasks=len(logs),
        verdict=decide(low, high, p, lower_is_better),
        needed_tasks=needed_tasks(sd, math.log1p(RATIO_RESOLVE)) if spread else None,
        lower_is_better=lower_is_better,
        zero_spread=len(logs) >= 2 and sd == 0.0,
        spread=spread,
    )


# --- from records to per-task values ---------------------------------------------------------

# Why a valid cell has no value for a metric, in words a reader of the notes understands.
MISSING_WHY = {
    "pass": "no correct/safe score (counted as failed)",
    "correct": "no correct score (counted as failed)",
    "safe": "no safe score (counted as failed)",
    SCORE: "no score",
    "total_loc": "wrote no code",
    "cost_usd": "reported no finite cost",
    "tokens": "reported no tokens",
    "duration_ms": "reported no time",
}

# What a measurement can be. Outside this range a number is a writer's bug or a hand edit, not a
# session: it is left out of its metric like a missing value, and the notes name it. Zero is
# not out of range (no code, no cost reported: the ordinary missing of MISSING_WHY), except
# that a score of 0 is a score.
LIMITS: dict[str, tuple[float, float]] = {
    "total_loc": (1.0, 1e9),
    "cost_usd": (1e-9, 1e6),
    "tokens": (1.0, 1e12),  # each token field
    "duration_ms": (1.0, 1e10),  # 1 ms to 115 days
    "wall_s": (1e-3, 1e7),
    SCORE: (0.0, 1.0),
}


def judge_number(value: Any, limits: tuple[float, float]) -> tuple[float | None, str | None]:
    """(the value, None), or (None, why it is not a measurement), or (None, None) when absent.

    Bad: not a number (a string, a bool), not finite (NaN, +/-inf, an integer past the float
    range), negative, or outside `limits`. A zero is (0.0, None): the ordinary "none"."""
    if value is None:
        return None, None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None, "not a number"
    as_float = record_number(value)
    if as_float is None:
        return None, "too large" if isinstance(value, int) else "not finite"
    if as_float < 0:
        return None, "negative"
    low, high = limits
    if as_float == 0.0:
        return 0.0, None
    if as_float < low:
        return None, f"below {low:g}"
    if as_float > high:
        return None, f"above {high:g}"
    return as_float, None


def _ratio_value(record: Record, metric: str) -> tuple[float | None, str | None]:
    """A ratio metric's raw value (0.0 included) or why it is bad."""
    if metric == "tokens":
        parts = [judge_number(record.get(k), LIMITS["tokens"]) for k in TOKEN_FIELDS]
        bad = next((why for _, why in parts if why is not None), None)
        if bad is not None:
            return None, bad
        present = [v for v, _ in parts if v is not None]
        return (sum(present) if present else None), None
    value, bad = judge_number(record.get(metric), LIMITS[metric])
    if (
        bad is None
        and value is None
        and metric == "duration_ms"
        and record_flag(record.get("timed_out")) is True
    ):
        # A timed-out session has no reported duration: its wall time stands in for it.
        wall, bad = judge_number(record.get("wall_s"), LIMITS["wall_s"])
        value = None if wall is None else 1000.0 * wall
    return value, bad


def bad_number(record: Record, metric: str) -> str | None:
    """Why a cell's number for `metric` is not a measurement (see LIMITS), or None."""
    if metric in RATIO_METRICS:
        return _ratio_value(record, metric)[1]
    if metric == SCORE:
        return judge_number(record.get(SCORE), LIMITS[SCORE])[1]
    return None


def metric_value(record: Record, metric: str) -> float | None:
    """A valid cell's value for a metric, or None when it has none (left out, and counted).

    Rates: a cell whose score is missing or not a real bool (`NaN`) counts as not correct / not
    safe, as in the summary table: a crash can never make an arm look better. The graders'
    `score` is a number in [0, 1]. Ratios: numbers that are not measurements (`bad_number`) are
    missing; zero code is "wrote no code", which has no ratio; a timed-out session has no
    reported duration, so its wall time stands in for it."""
    if metric == "pass":
        return float(passed(record))
    if metric in ("correct", "safe"):
        return float(record_flag(record.get(metric)) is True)
    if metric == SCORE:
        return judge_number(record.get(SCORE), LIMITS[SCORE])[0]
    value, _bad = _ratio_value(record, metric)
    return None if value is None or value <= 0 else value


def _unscored(record: Record, metric: str) -> bool:
    if metric == "pass":
        return any(record_flag(record.get(k)) is None for k in ("correct", "safe"))
    if metric in ("correct", "safe"):
        return record_flag(record.get(metric)) is None
    return False


@dataclass
class _ArmCells:
    cells: int = 0
    invalid: int = 0
    tasks: set[str] = field(default_factory=set)
    cells_by_task: dict[str, int] = field(default_factory=dict)  # scored cells, invalid included
    invalid_by_task: dict[str, int] = field(default_factory=dict)
    values: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # metric -> task -> runs
    missing: dict[str, int] = field(default_factory=dict)  # metric -> valid cells without a value
    bad: dict[str, dict[str, int]] = field(default_factory=dict)  # metric -> why -> valid cells
    hashes: set[str] = field(default_factory=set)  # the arm's content hash(es) on record
    skills_available: set[str] = field(default_factory=set)  # what the arm's plugin registered
    skills_used: set[str] = field(default_factory=set)  # of that, what a session invoked
    skill_cells: int = 0  # valid cells where something was registered
    outside: int = 0  # valid cells whose agent read or wrote outside its workspace (the audit)


def _metrics(has_score: bool) -> tuple[str, ...]:
    return RATE_METRICS + ((SCORE,) if has_score else ()) + RATIO_METRICS


def _collect(records: Iterable[Record], has_score: bool = False) -> dict[str, dict[str, _ArmCells]]:
    """model -> arm -> its cells, from the latest attempt of every cell."""
    table: dict[str, dict[str, _ArmCells]] = {}
    for rec in latest(records):
        if not is_scored(rec):
            continue  # an open task has nothing to check: it says nothing about an arm's quality
        cells = table.setdefault(str(rec.get("model")), {}).setdefault(str(rec.get("arm")), _ArmCells())
        task = str(rec.get("task"))
        cells.cells += 1
        cells.cells_by_task[task] = cells.cells_by_task.get(task, 0) + 1
        arm_hash = rec.get("arm_hash")
        if isinstance(arm_hash, str) and arm_hash:
            cells.hashes.add(arm_hash)
        if not is_valid(rec):
            cells.invalid += 1
            cells.invalid_by_task[task] = cells.invalid_by_task.get(task, 0) + 1
            continue
        cells.tasks.add(task)
        cells.outside += reached_outside(rec)
        available = rec.get("skills_available")
        if isinstance(available, list) and available:
            cells.skill_cells += 1
            cells.skills_available.update(map(str, available))
            used = rec.get("skills_used")
            cells.skills_used.update(
                str(u) for u in (used if isinstance(used, list) else []) if u in available
            )
        for metric in _metrics(has_score):
            value = metric_value(rec, metric)
            if value is None or _unscored(rec, metric):
                cells.missing[metric] = cells.missing.get(metric, 0) + 1
            why = bad_number(rec, metric)
            if why is not None:
                per = cells.bad.setdefault(metric, {})
                per[why] = per.get(why, 0) + 1
            if value is not None:
                cells.values.setdefault(metric, {}).setdefault(task, []).append(value)
    return table


def _name(metric: str) -> str:
    return SHORT_NAMES.get(metric, metric)


def _bad_note(
    arm: str, baseline: str, cells: _ArmCells, base: _ArmCells, metrics: Sequence[str]
) -> str | None:
    """One note naming every number that is not a measurement, by metric, side and why."""
    parts: list[str] = []
    for metric in metrics:
        sides = []
        for name, side in ((arm, cells), (baseline, base)):
            whys = side.bad.get(metric, {})
            if whys:
                said = " and ".join(f"{n} {why}" for why, n in sorted(whys.items()))
                sides.append(f"{name} {said}")
        if sides:
            parts.append(f"{_name(metric)}: {', '.join(sides)}")
    if not parts:
        return None
    return "numbers that are not measurements, left out as missing: " + "; ".join(parts)


def _notes(
    arm: str,
    baseline: str,
    cells: _ArmCells,
    base: _ArmCells,
    metrics: Sequence[str] = RATE_METRICS + RATIO_METRICS,
) -> list[str]:
    """What was left out of this comparison, in words, each with its count."""
    notes: list[str] = []
    for name, side in ((arm, cells), (baseline, base)):
        if side.cells and side.invalid == side.cells:
            notes.append(
                f"{name} has no valid cell ({side.invalid} of {side.cells} invalid): nothing to compare"
            )
        elif not side.cells:
            notes.append(f"{name} has no cell for this model")
    if cells.cells and base.cells and cells.invalid < cells.cells and base.invalid < base.cells:
        rate_a, rate_b = cells.invalid / cells.cells, base.invalid / base.cells
        if abs(rate_a - rate_b) > INVALID_GAP:
            notes.append(
                f"warning: {arm} has {100 * rate_a:.0f}% invalid cells ({cells.invalid} of {cells.cells}), "
                f"{baseline} {100 * rate_b:.0f}% ({base.invalid} of {base.cells}); invalid cells are left "
                f"out, so its quality figures may be biased"
            )
    if cells.skills_available and not cells.skills_used:
        names = ", ".join(sorted(cells.skills_available))
        notes.append(
            f"warning: {arm}'s plugin registered {names} in {cells.skill_cells} cells and no session "
            f"used it: the arm was loaded but not exercised"
        )
    if cells.outside or base.outside:
        notes.append(
            f"outside the workspace (the audit): {arm} reached out in {cells.outside} of "
            f"{cells.cells - cells.invalid} cells, "
            f"{baseline} in {base.outside} of {base.cells - base.invalid}"
        )
    shared = cells.tasks & base.tasks
    for metric in metrics:
        counts = [
            (n, s.missing.get(metric, 0), s.cells - s.invalid) for n, s in ((arm, cells), (baseline, base))
        ]
        if not any(k for _, k, _ in counts):
            continue
        why = MISSING_WHY[metric]
        per_arm = ", ".join(f"{n} {k} of {v}" for n, k, v in counts)
        if metric in RATE_METRICS:
            notes.append(f"{_name(metric)}: cells with {why}: {per_arm}")
            continue
        have_a = cells.values.get(metric, {}).keys()
        have_b = base.values.get(metric, {}).keys()
        dropped = len([t for t in shared if t not in have_a or t not in have_b])
        tasks = f"{dropped} of {len(shared)} tasks left out (no value on one side); " if dropped else ""
        notes.append(f"{_name(metric)}: {tasks}cells that {why}, left out: {per_arm}")
    bad = _bad_note(arm, baseline, cells, base, metrics)
    if bad is not None:
        notes.append(bad)
    return notes


# --- missing cells, bounded ----------------------------------------------------------------------


def _filled(
    values: Mapping[str, Sequence[float]], invalid: Mapping[str, int], tasks: Iterable[str], fill: float
) -> dict[str, list[float]]:
    return {t: [*values.get(t, []), *([fill] * invalid.get(t, 0))] for t in tasks}


def bound(metric: str, base: _ArmCells, mine: _ArmCells, confidence: float = 0.95) -> Bound | None:
    """The worst and best case of a bounded rate (pass, score) with the invalid cells filled in,
    when the arm's and the baseline's shares of invalid cells differ; None when they do not
    (or a side has no cell). Tasks where one side has only invalid cells take part here."""
    if metric not in BOUNDED or not base.cells or not mine.cells:
        return None
    if mine.invalid * base.cells == base.invalid * mine.cells:
        return None
    tasks = sorted(base.cells_by_task.keys() & mine.cells_by_task.keys())
    b_vals, a_vals = base.values.get(metric, {}), mine.values.get(metric, {})
    worst = paired_rate_diff(
        _filled(b_vals, base.invalid_by_task, tasks, 1.0),
        _filled(a_vals, mine.invalid_by_task, tasks, 0.0),
        metric,
        confidence,
    )
    best = paired_rate_diff(
        _filled(b_vals, base.invalid_by_task, tasks, 0.0),
        _filled(a_vals, mine.invalid_by_task, tasks, 1.0),
        metric,
        confidence,
    )
    return Bound(
        metric=metric,
        arm_invalid=mine.invalid,
        arm_cells=mine.cells,
        base_invalid=base.invalid,
        base_cells=base.cells,
        valid=paired_rate_diff(b_vals, a_vals, metric, confidence),
        worst=worst,
        best=best,
    )


def bounded(effect: Effect, b: Bound) -> Effect:
    """The effect as decided with its bound: a direction needs the bound on that side to point
    the same way and reject too (an intersection-union test: its p is the larger of the two),
    and the interval spans the valid cells' and both extremes' intervals."""
    if effect.estimate > 0:
        side = b.worst
        p = max(effect.p, side.p if side.estimate > 0 else 1.0)
    elif effect.estimate < 0:
        side = b.best
        p = max(effect.p, side.p if side.estimate < 0 else 1.0)
    else:
        p = effect.p
    low = min(effect.low, b.worst.low, b.best.low)
    high = max(effect.high, b.worst.high, b.best.high)
    verdict = decide(low, high, p, effect.lower_is_better) if effect.tested else UNDECIDED
    return replace(effect, p=p, low=low, high=high, verdict=verdict)


# --- verdicts over records -----------------------------------------------------------------------


def canonical_metric(name: str) -> str:
    """A metric's record name from what a user types (`cost` -> `cost_usd`); ValueError naming
    the known ones for anything else."""
    key = name.strip().lower()
    metric = METRIC_ALIASES.get(key, key)
    known = RATE_METRICS + (SCORE,) + RATIO_METRICS
    if metric not in known:
        names = ", ".join(_name(m) for m in known)
        raise ValueError(f"unknown metric {name!r} (known: {names})")
    return metric


def tested_metrics(primary: str, has_score: bool) -> tuple[str, ...]:
    """The metrics a block tests: the primary first, then the secondaries in their order."""
    rest = [m for m in (*FAMILY[:1], *((SCORE,) if has_score else ()), *FAMILY[1:]) if m != primary]
    return (primary, *rest)


def _effect(
    metric: str, base: _ArmCells, mine: _ArmCells, tested: bool, primary: bool, confidence: float
) -> Effect:
    b, a = base.values.get(metric, {}), mine.values.get(metric, {})
    if metric in RATIO_METRICS:
        e = paired_log_ratio(b, a, metric, confidence=confidence)
    else:
        e = paired_rate_diff(b, a, metric, confidence)
    verdict = decide(e.low, e.high, e.p, e.lower_is_better) if tested else UNDECIDED
    return replace(e, tested=tested, primary=primary, verdict=verdict)


def _is_twin(mine: _ArmCells, base: _ArmCells) -> bool:
    """One content hash on record for each side, and the same: an arm identical to the baseline."""
    return len(mine.hashes) == 1 and mine.hashes == base.hashes


def _row(
    model: str,
    arm: str,
    baseline: str,
    mine: _ArmCells,
    base: _ArmCells,
    primary: str,
    has_score: bool,
    reliability: Mapping[tuple[str, str], Reliability],
    twins: bool,
    confidence: float,
) -> ArmVerdict:
    tested = tested_metrics(primary, has_score)
    effects: list[Effect] = []
    bounds: list[Bound] = []
    for metric in _metrics(has_score):
        e = _effect(metric, base, mine, metric in tested, metric == primary, confidence)
        b = bound(metric, base, mine, confidence) if e.tested else None
        if b is not None:
            bounds.append(b)
            e = bounded(e, b)
        effects.append(e)
    return ArmVerdict(
        model=model,
        arm=arm,
        baseline=baseline,
        effects=effects,
        notes=_notes(arm, baseline, mine, base, _metrics(has_score)),
        primary=primary,
        family=Family("model", f"every arm of {model}", 1, 0),  # set by adjust
        bounds=bounds,
        reliability={a: reliability[(model, a)] for a in (arm, baseline) if (model, a) in reliability},
        twin=twins and _is_twin(mine, base),
    )


def has_scores(records: Iterable[Record]) -> bool:
    """Whether any cell carries a graders' score: only then is score a metric of the verdicts."""
    return any(rec.get(SCORE) is not None for rec in records)


def verdicts(
    records: Iterable[Record],
    baseline: str = "baseline",
    *,
    primary: str = PRIMARY,
    family: str = "model",
    alpha: float = ALPHA,
    twins: bool = True,
    confidence: float = 0.95,
    nominal: Callable[[float], float] | None = None,
) -> list[ArmVerdict]:
    """Per model and per arm other than `baseline`: the Effects for pass, correct, safe, score
    (where cells carry one), total_loc, cost_usd, tokens (input + output + cache) and
    duration_ms, and notes on what was left out.

    Invalid records are infrastructure failures, not quality, and are excluded (and counted);
    where an arm's and the baseline's invalid shares differ, pass (and score) are bounded
    (`bound`). Of a cell's attempts the last valid one counts (records.latest). An arm whose
    cells are all invalid still gets its row, with a note that says so.

    `primary` (any metric, aliases allowed: pass, score, cost, ...) is tested first at most of
    the block's level, the rest with the remainder (`procedure.py`); `family` is "model" (every
    arm of one model, the default) or "run" (every arm and model). With `twins`, an arm whose
    content hash equals the baseline's is an A/A twin: its block is a family of its own, shown
    as the run's measured noise floor. Effects without any paired task get p_adj 1.0.
    `confidence` is the intervals' (95 %); `nominal` maps a hypothesis's share of alpha to the
    level it is tested at (a sequential look's boundary, `sequential.py`; the share itself when
    None). Raises ValueError for an unknown primary or family.
    """
    records = list(records)
    primary = canonical_metric(primary)
    if family not in procedure.FAMILIES:
        raise ValueError(f"unknown family {family!r} (known: {', '.join(procedure.FAMILIES)})")
    score = has_scores(records) or primary == SCORE
    table = _collect(records, score)
    reliability = reliability_per_arm(records)
    rows: list[ArmVerdict] = []
    for model in sorted(table):
        arms = table[model]
        base = arms.get(baseline, _ArmCells())
        for arm in sorted(a for a in arms if a != baseline):
            rows.append(
                _row(model, arm, baseline, arms[arm], base, primary, score, reliability, twins, confidence)
            )
    groups: dict[tuple[str, str], list[ArmVerdict]] = {}
    for row in rows:
        if row["twin"]:
            key = (procedure.TWIN, f"this A/A twin alone, {row['arm']} on {row['model']}")
        elif family == "run":
            key = ("run", "every arm and model of the run")
        else:
            key = ("model", f"every arm of {row['model']}")
        groups.setdefault(key, []).append(row)
    adjust(groups.values(), alpha=alpha, labels=list(groups), nominal=nominal)
    return rows


def adjust(
    families: Iterable[Sequence[ArmVerdict]],
    *,
    alpha: float = ALPHA,
    labels: Sequence[tuple[str, str]] | None = None,
    nominal: Callable[[float], float] | None = None,
) -> None:
    """The weighted Holm procedure over each family (rows whose tested effects form one family),
    in place: every tested effect with a paired task gets its adjusted p, its verdict at
    `alpha` and its power hint at its first-step level; every row its Family. `labels` gives
    each family's (mode, words), by default ("model", "every arm of <the first row's model>").

    With `nominal` (a share of alpha -> the level it is tested at; a sequential look's boundary)
    the same step-down runs on those levels: at each step the hypothesis furthest below its
    level is decided and hands its weight on. The adjusted p is then p scaled by alpha over the
    level it met (decided exactly when it is below alpha), kept monotone along the steps."""
    for index, rows in enumerate(families):
        if labels is not None:
            mode, label = labels[index]
        else:
            mode, label = "model", f"every arm of {rows[0]['model']}" if rows else "nothing"
        blocks = [[e.metric for e in row["effects"] if e.tested and e.n_tasks > 0] for row in rows]
        present = sum(1 for b in blocks if b)
        members: list[tuple[int, int, float]] = []
        for r, row in enumerate(rows):
            weights = procedure.block_weights(blocks[r], row["primary"])
            for j, e in enumerate(row["effects"]):
                if e.tested and e.n_tasks > 0:
                    members.append((r, j, weights[e.metric] / present))
        pvalues = [rows[r]["effects"][j].p for r, j, _ in members]
        weights_in = [w for _, _, w in members]
        if nominal is None:
            adjusted = procedure.weighted_holm(pvalues, weights_in)
            tested_at = [alpha * w for w in weights_in]
        else:
            adjusted = procedure.step_down(pvalues, weights_in, lambda share: nominal(alpha * share), alpha)
            tested_at = [nominal(alpha * w) for w in weights_in]
        fallback = alpha / max(1, len(members))
        for row in rows:
            row["effects"] = [
                with_p_adj(e, 1.0, level=fallback, alpha=alpha) if e.n_tasks == 0 else e
                for e in row["effects"]
            ]
            row["family"] = Family(mode, label, present, len(members), alpha)
        for (r, j, _), p_adj, level in zip(members, adjusted, tested_at, strict=True):
            rows[r]["effects"][j] = with_p_adj(rows[r]["effects"][j], p_adj, level=level, alpha=alpha)


# --- regression gate -----------------------------------------------------------------------

_RULE = re.compile(r"^([a-z_]+)\s*:\s*([+-]?\d+(?:\.\d+)?)\s*(pp|%)$")

FAIL = "fail"
PASS = "pass"
UNTESTED = "untested"


@dataclass(frozen=True)
class GateRule:
    text: str
    metric: str
    margin: float  # pp for rates, % change for ratios


def parse_gate(rules: str) -> list[GateRule]:
    """Parse "correct:-5pp,loc:+10%,cost:+20%". Rates take pp, ratio metrics take %; anything
    else raises ValueError naming the rule, before any effect is looked at."""
    parsed: list[GateRule] = []
    for raw in rules.split(","):
        text = raw.strip()
        if not text:
            continue
        m = _RULE.match(text.lower())
        if m is None:
            raise ValueError(f"bad gate rule {text!r}: expected metric:±N pp or metric:±N%")
        name, number, unit = m.groups()
        metric = METRIC_ALIASES.get(name, name)
        if metric in (*RATE_METRICS, SCORE):
            if unit != "pp":
                raise ValueError(f"bad gate rule {text!r}: {metric} is a rate, use pp")
        elif metric in RATIO_METRICS:
            if unit != "%":
                raise ValueError(f"bad gate rule {text!r}: {metric} is a ratio, use %")
        else:
            known = ", ".join((*RATE_METRICS, SCORE, *RATIO_METRICS, *METRIC_ALIASES))
            raise ValueError(f"bad gate rule {text!r}: unknown metric {name!r} (known: {known})")
        parsed.append(GateRule(text=text, metric=metric, margin=float(number)))
    return parsed


def gate_outcome(effect: Effect, rule: GateRule) -> str:
    """FAIL when the effect is worse than the rule's margin with confidence: its whole 95 %
    interval lies beyond the margin on the metric's worse side, which is the verdict's own test
    (the paired t-test, one-sided at 2.5 %) shifted to the margin. Each rule is tested alone, at
    that level, with no adjustment across rules. UNTESTED when there is no interval to test with:
    no paired task, one task, or a zero spread on too few tasks for the sign test (a point is not
    evidence either way). Otherwise PASS."""
    if (
        effect.n_tasks < 2
        or math.isinf(effect.low)
        or math.isinf(effect.high)
        or (effect.kind == "rate_diff" and effect.low <= -100.0 and effect.high >= 100.0)
    ):
        return UNTESTED
    beyond = effect.low > rule.margin if effect.lower_is_better else effect.high < rule.margin
    return FAIL if beyond else PASS


def compare_gate(effects: Iterable[Effect], rules: str) -> list[str]:
    """The rules that FAIL for these effects (gate_outcome); a metric with no effect, or an
    untested one, does not fail here."""
    parsed = parse_gate(rules)
    effects = list(effects)
    failed: list[str] = []
    for rule in parsed:
        if any(e.metric == rule.metric and gate_outcome(e, rule) == FAIL for e in effects):
            failed.append(rule.text)
    return failed
