"""Paired arm-vs-baseline statistics: pure functions, standard library only.

The task is the unit of analysis. Runs of one task share the prompt, the fixture and the
scorer, so they are not independent observations: every estimate here first averages the runs of
a task and then treats tasks as the sample. Arm and baseline are paired by task, which removes
the (large) task-to-task difficulty spread from the comparison.

One decision rule for every metric: the paired t-test over tasks. Its 95 % t-interval is the
interval shown, its p (Holm-adjusted over the model's family) decides, and the power hint is the
same test's power at the Holm level. The exact sign test it replaced dropped tied tasks (a third
of them at 3 runs) and ignored how far each task moved; at a nominal 5 % its real size was 1-3 %.

Units: a rate difference (`kind="rate_diff"`) is in percentage points, a ratio (`kind="ratio"`)
is a % change (-20.0 means the arm uses 20 % less). No change is 0.0 in both.

The family Holm adjusts over is every arm x {pass, loc, cost, tokens, time} of one model.
`correct` and `safe` are shown as the breakdown of pass (which axis moved) but not tested on
their own: pass is their conjunction, so testing all three asks one question three times and
costs every other metric power.

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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict

from pytest_ponybench.core.records import flag as record_flag
from pytest_ponybench.core.records import is_scored, is_valid, latest, passed, reached_outside
from pytest_ponybench.core.records import number as record_number
from pytest_ponybench.core.records import tokens as record_tokens

ALPHA = 0.05
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
RATIO_METRICS = ("total_loc", "cost_usd", "tokens", "duration_ms")
FAMILY = ("pass", *RATIO_METRICS)  # tested under Holm
BREAKDOWN = ("correct", "safe")  # shown as pass's breakdown, not tested on their own
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
    that gives 80 % power for a 10-point / 10 % difference at the Holm level of the family
    (`level`), at the current runs per task; `needed_runs` the runs per task that would do it
    on the tasks there are (None when runs cannot: the tasks disagree more than runs average).
    `tested` is False for a breakdown metric (correct, safe): shown, never decided.
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


class ArmVerdict(TypedDict):
    model: str
    arm: str
    baseline: str
    effects: list[Effect]
    notes: list[str]  # cells and tasks left out, arms without valid cells, invalid-rate gaps


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
    """P(|T| >= |t|) for Student t with df degrees of freedom."""
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


def task_means(values_by_task: Mapping[str, Sequence[float]]) -> dict[str, float]:
    """Mean over each task's runs; tasks without runs are dropped rather than counted as 0."""
    return {task: sum(vals) / len(vals) for task, vals in values_by_task.items() if len(vals) > 0}


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
    score = sum(sum(v - mean for v in c) ** 2 for c in clusters)
    var = c_count / (c_count - 1) * score / (n * n)
    return mean, math.sqrt(var)


def t_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, Interval]:
    """Mean and t-interval of a sample (here: per-task differences). Fewer than 2 values give an
    unbounded interval; zero spread gives the sign test's interval (see the module docstring)."""
    n = len(values)
    if n == 0:
        return 0.0, Interval(-math.inf, math.inf)
    mean = sum(values) / n
    if n < 2:
        return mean, Interval(-math.inf, math.inf)
    sd = _sd(values, mean)
    if sd == 0.0:
        if n < MIN_SIGN_TASKS:
            return mean, Interval(-math.inf, math.inf)
        return mean, Interval(mean, mean)
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * sd / math.sqrt(n)
    return mean, Interval(mean - half, mean + half)


def _sd(values: Sequence[float], mean: float) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    ss = sum((v - mean) ** 2 for v in values)
    # Differences that are equal up to float noise (e.g. 0.1 + 0.2) count as zero spread, so the
    # degenerate branch is taken deterministically.
    scale = max(1.0, max(abs(v) for v in values))
    if ss <= (1e-12 * scale) ** 2 * n:
        return 0.0
    return math.sqrt(ss / (n - 1))


def paired_t_p(values: Sequence[float]) -> float:
    """Two-sided p of the paired t-test (mean of per-task differences is 0); the exact sign
    test when there is no spread, 1.0 below two tasks."""
    n = len(values)
    if n < 2:
        return 1.0
    mean = sum(values) / n
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
    n = 1
    while 2.0 / 2**n >= alpha:
        n += 1
    return n


def needed_tasks(sd: float, delta: float, alpha: float = ALPHA) -> int | None:
    """Paired tasks that give the t-test 80 % power at two-sided level alpha (the Holm level of
    the family: alpha / family size) for a true mean difference delta, given the per-task
    difference sd. None past MAX_HINT_TASKS. With no spread, the sign test's minimum."""
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


def with_p_adj(effect: Effect, p_adj: float, family_size: int = 1) -> Effect:
    """The effect re-decided with a multiplicity-adjusted p-value, its power hint at the Holm
    level of a family of `family_size` tests (the first step of Holm: alpha / size)."""
    if not effect.tested:
        return replace(effect, p_adj=None, verdict=UNDECIDED)
    verdict = decide(effect.low, effect.high, p_adj, effect.lower_is_better)
    level = ALPHA / max(1, family_size)
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
            m = sum(side) / r
            s2 = sum((v - m) ** 2 for v in side) / (r - 1)
            var += s2 / r / (m * m if transform == "log" and m > 0 else 1.0)
        parts.append(var)
    return (_mean(parts) if parts else None), _mean(runs)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def paired_rate_diff(
    base: Mapping[str, Sequence[float]],
    arm: Mapping[str, Sequence[float]],
    metric: str = "pass",
) -> Effect:
    """Arm minus baseline rate, in percentage points: the mean of per-task differences, the
    paired t-test and its t-interval over tasks."""
    pairs = _paired(base, arm)
    diffs = [a - b for _, b, a in pairs]
    mean, ci = t_interval(diffs)
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


def _pct(log_ratio: float) -> float:
    if log_ratio == math.inf:
        return math.inf
    if log_ratio == -math.inf:
        return -100.0
    return 100.0 * math.expm1(log_ratio)


def paired_log_ratio(
    base: Mapping[str, Sequence[float]],
    arm: Mapping[str, Sequence[float]],
    metric: str,
    lower_is_better: bool = True,
) -> Effect:
    """Arm / baseline as a % change: exp(mean per-task log ratio), the paired t-test and its
    interval on the log scale. Log ratios make a halving and a doubling symmetric and stop one
    huge task from dominating. Tasks where either side's mean is <= 0 have no ratio: `verdicts`
    keeps such values out beforehand and says so."""
    pairs = [(t, b, a) for t, b, a in _paired(base, arm) if a > 0 and b > 0]
    logs = [math.log(a / b) for _, b, a in pairs]
    mean, ci = t_interval(logs)
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
    "total_loc": "wrote no code",
    "cost_usd": "reported no finite cost",
    "tokens": "reported no tokens",
    "duration_ms": "reported no time",
}


def metric_value(record: Mapping[str, Any], metric: str) -> float | None:
    """A valid cell's value for a metric, or None when it has none (left out, and counted).

    Rates: a cell whose score is missing or not a real bool (`NaN`) counts as not correct / not
    safe, as in the summary table: a crash can never make an arm look better. Ratios: non-finite
    numbers are missing; zero code is "wrote no code", which has no ratio; a timed-out session
    has no reported duration, so its wall time stands in for it."""
    if metric == "pass":
        return float(passed(record))
    if metric in ("correct", "safe"):
        return float(record_flag(record.get(metric)) is True)
    if metric == "tokens":
        total = record_tokens(record)
        return None if total is None or total <= 0 else float(total)
    value = record_number(record.get(metric))
    if metric == "duration_ms" and value is None and record_flag(record.get("timed_out")) is True:
        wall = record_number(record.get("wall_s"))
        value = None if wall is None else 1000.0 * wall
    return None if value is None or value <= 0 else value


def _unscored(record: Mapping[str, Any], metric: str) -> bool:
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
    values: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # metric -> task -> runs
    missing: dict[str, int] = field(default_factory=dict)  # metric -> valid cells without a value
    skills_available: set[str] = field(default_factory=set)  # what the arm's plugin registered
    skills_used: set[str] = field(default_factory=set)  # of that, what a session invoked
    skill_cells: int = 0  # valid cells where something was registered
    outside: int = 0  # valid cells whose agent read or wrote outside its workspace (the audit)


def _collect(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, _ArmCells]]:
    """model -> arm -> its cells, from the latest attempt of every cell."""
    table: dict[str, dict[str, _ArmCells]] = {}
    for rec in latest(records):
        if not is_scored(rec):
            continue  # an open task has nothing to check: it says nothing about an arm's quality
        cells = table.setdefault(str(rec.get("model")), {}).setdefault(str(rec.get("arm")), _ArmCells())
        cells.cells += 1
        if not is_valid(rec):
            cells.invalid += 1
            continue
        task = str(rec.get("task"))
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
        for metric in RATE_METRICS + RATIO_METRICS:
            value = metric_value(rec, metric)
            if value is None or _unscored(rec, metric):
                cells.missing[metric] = cells.missing.get(metric, 0) + 1
            if value is not None:
                cells.values.setdefault(metric, {}).setdefault(task, []).append(value)
    return table


def _name(metric: str) -> str:
    return SHORT_NAMES.get(metric, metric)


def _notes(arm: str, baseline: str, cells: _ArmCells, base: _ArmCells) -> list[str]:
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
    for metric in RATE_METRICS + RATIO_METRICS:
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
    return notes


def verdicts(records: Iterable[Mapping[str, Any]], baseline: str = "baseline") -> list[ArmVerdict]:
    """Per model and per arm other than `baseline`: the Effects for pass, correct, safe,
    total_loc, cost_usd, tokens (input + output + cache) and duration_ms, and notes on what was
    left out.

    Invalid records are infrastructure failures, not quality, and are excluded (and counted).
    Of a cell's attempts the last valid one counts (records.latest). An arm whose cells are all
    invalid still gets its row, with a note that says so. Holm runs over all arms x FAMILY
    metrics of one model; effects without any paired task cannot reject and get p_adj 1.0.
    """
    table = _collect(records)
    out: list[ArmVerdict] = []
    for model in sorted(table):
        arms = table[model]
        base = arms.get(baseline, _ArmCells())
        rows: list[ArmVerdict] = []
        for arm in sorted(a for a in arms if a != baseline):
            mine = arms[arm]
            effects: list[Effect] = []
            for metric in RATE_METRICS:
                effects.append(
                    paired_rate_diff(base.values.get(metric, {}), mine.values.get(metric, {}), metric)
                )
            for metric in RATIO_METRICS:
                effects.append(
                    paired_log_ratio(base.values.get(metric, {}), mine.values.get(metric, {}), metric)
                )
            rows.append(
                ArmVerdict(
                    model=model,
                    arm=arm,
                    baseline=baseline,
                    effects=effects,
                    notes=_notes(arm, baseline, mine, base),
                )
            )
        adjust([rows])
        out.extend(rows)
    return out


def adjust(families: Iterable[Sequence[ArmVerdict]]) -> None:
    """Holm over each family (rows whose tested effects form one family), in place: every tested
    effect with a paired task gets its adjusted p, verdict and power hint at the family's level."""
    for rows in families:
        members = [
            (r, j)
            for r, row in enumerate(rows)
            for j, e in enumerate(row["effects"])
            if e.tested and e.n_tasks > 0
        ]
        adjusted = holm([rows[r]["effects"][j].p for r, j in members])
        for row in rows:
            row["effects"] = [
                with_p_adj(e, 1.0, len(members)) if e.n_tasks == 0 else e for e in row["effects"]
            ]
        for (r, j), p_adj in zip(members, adjusted, strict=True):
            rows[r]["effects"][j] = with_p_adj(rows[r]["effects"][j], p_adj, len(members))


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
        if metric in RATE_METRICS:
            if unit != "pp":
                raise ValueError(f"bad gate rule {text!r}: {metric} is a rate, use pp")
        elif metric in RATIO_METRICS:
            if unit != "%":
                raise ValueError(f"bad gate rule {text!r}: {metric} is a ratio, use %")
        else:
            known = ", ".join(RATE_METRICS + RATIO_METRICS + tuple(METRIC_ALIASES))
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
