"""Paired arm-vs-baseline statistics: pure functions, standard library only.

The task is the unit of analysis. Runs of one task share the prompt, the fixture and the
scorer, so they are not independent observations: every estimate here first averages the runs of
a task and then treats tasks as the sample. Arm and baseline are paired by task, which removes
the (large) task-to-task difficulty spread from the comparison.

Units: a rate difference (`kind="rate_diff"`) is in percentage points, a ratio (`kind="ratio"`)
is a % change (-20.0 means the arm uses 20 % less). No change is 0.0 in both.

Degenerate inputs never raise and never produce NaN:
- no paired task: estimate 0.0, an unbounded interval, p 1.0, "undecided";
- one paired task: the estimate is that task's difference, an unbounded interval because a
  spread cannot be estimated from one point, p 1.0, "undecided". Unbounded means each kind's own
  range: (-100, 100) pp for a rate difference, (-100 %, inf) for a ratio;
- zero spread (every task has the same difference): the t-interval collapses to that value, and
  the test falls back to the exact sign test on the tasks' signs, because a t statistic of d/0 is
  not evidence; the sign test needs at least 6 tasks, all one way, to reach p < 0.05.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypedDict

from .records import flag as record_flag
from .records import number as record_number
from .records import tokens as record_tokens

ALPHA = 0.05
Z_975 = 1.959964  # standard normal 0.975 quantile, the two-sided 95 % z
POWER = 0.80
RATE_RESOLVE = 0.10  # power hint: a 10 percentage-point difference in a rate
RATIO_RESOLVE = 0.10  # power hint: a 10 % change in a ratio metric
# The exact two-sided sign test cannot reach p < 0.05 with fewer than 6 tasks (2 / 2**5 > 0.05),
# so no power hint promises a verdict below that.
MIN_DECIDABLE_TASKS = 6

RATE_METRICS = ("pass", "correct", "safe")
RATIO_METRICS = ("total_loc", "cost_usd", "tokens", "duration_ms")
# Short names people type in gate rules.
METRIC_ALIASES = {
    "loc": "total_loc",
    "cost": "cost_usd",
    "time": "duration_ms",
    "duration": "duration_ms",
}

BETTER = "better"
WORSE = "worse"
UNDECIDED = "undecided"


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


@dataclass(frozen=True)
class Effect:
    """One metric of one arm against the baseline, paired by task.

    `p_adj` is None until a multiplicity adjustment has been applied; `verdict` is then based on
    the raw `p`. `needed_tasks` is the total number of paired tasks (not the number still to add)
    that would resolve a 10-point / 10 % difference at 80 % power given the observed spread.
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


class ArmVerdict(TypedDict):
    model: str
    arm: str
    baseline: str
    effects: list[Effect]


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
    unbounded interval; zero spread gives a point interval."""
    n = len(values)
    if n == 0:
        return 0.0, Interval(-math.inf, math.inf)
    mean = sum(values) / n
    if n < 2:
        return mean, Interval(-math.inf, math.inf)
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * _sd(values, mean) / math.sqrt(n)
    return mean, Interval(mean - half, mean + half)


def _sd(values: Sequence[float], mean: float) -> float:
    n = len(values)
    ss = sum((v - mean) ** 2 for v in values)
    # Differences that are equal up to float noise (e.g. 0.1 + 0.2) count as zero spread, so the
    # degenerate branch is taken deterministically.
    scale = max(1.0, max(abs(v) for v in values))
    if ss <= (1e-12 * scale) ** 2 * n:
        return 0.0
    return math.sqrt(ss / (n - 1))


def needed_tasks(sd: float, delta: float) -> int:
    """Paired tasks needed to detect a true mean difference `delta` at 80 % power, two-sided
    alpha 0.05, given the per-task difference spread `sd`: smallest n with
    (t_{0.975,n-1} + t_{0.80,n-1}) * sd / sqrt(n) <= delta. Ignores Holm, so it is a floor."""
    if sd <= 0.0:
        return MIN_DECIDABLE_TASKS
    z_beta = 0.841621  # standard normal 0.80 quantile
    n = max(2, math.ceil(((Z_975 + z_beta) * sd / delta) ** 2))
    while (t_quantile(0.975, n - 1) + t_quantile(POWER, n - 1)) * sd / math.sqrt(n) > delta:
        n += 1
    return max(MIN_DECIDABLE_TASKS, n)


# --- verdicts ----------------------------------------------------------------------------------


# A change whose whole interval lies within this many points (rates) or percent (ratios) of
# no change is too small to matter: one extra token per task is "significant" with no spread,
# and calling that "worse" would mislead.
NEGLIGIBLE = 1.0


def is_negligible(low: float, high: float) -> bool:
    return -NEGLIGIBLE < low and high < NEGLIGIBLE


def decide(low: float, high: float, p: float, lower_is_better: bool, alpha: float = ALPHA) -> str:
    """Decided only when the test rejects AND the interval excludes no-change (0) AND the
    change is not negligible; the first two alone can be fooled (a sign test by tiny
    differences, a t-interval by a skewed sample)."""
    if not p < alpha or is_negligible(low, high):
        return UNDECIDED
    if low > 0.0:
        return WORSE if lower_is_better else BETTER
    if high < 0.0:
        return BETTER if lower_is_better else WORSE
    return UNDECIDED


def with_p_adj(effect: Effect, p_adj: float) -> Effect:
    """The effect re-decided with a multiplicity-adjusted p-value."""
    verdict = decide(effect.low, effect.high, p_adj, effect.lower_is_better)
    return replace(effect, p_adj=p_adj, verdict=verdict)


def _paired(
    base: Mapping[str, Sequence[float]], arm: Mapping[str, Sequence[float]]
) -> list[tuple[float, float]]:
    b, a = task_means(base), task_means(arm)
    return [(b[t], a[t]) for t in sorted(b.keys() & a.keys())]


def paired_rate_diff(
    base: Mapping[str, Sequence[float]],
    arm: Mapping[str, Sequence[float]],
    metric: str = "pass",
) -> Effect:
    """Arm minus baseline rate, in percentage points: the mean of per-task differences with a
    t-interval over tasks; the test is the exact sign test on tasks where the two differ."""
    diffs = [a - b for b, a in _paired(base, arm)]
    mean, ci = t_interval(diffs)
    wins = sum(1 for d in diffs if d > 0)
    losses = sum(1 for d in diffs if d < 0)
    p = sign_test_p(wins, losses)
    # A difference of rates cannot leave [-100, 100] pp; clip the t-interval's tails to that.
    low = max(-100.0, 100.0 * ci.low)
    high = min(100.0, 100.0 * ci.high)
    need = needed_tasks(_sd(diffs, mean), RATE_RESOLVE) if len(diffs) >= 2 else None
    return Effect(
        metric=metric,
        kind="rate_diff",
        estimate=100.0 * mean,
        low=low,
        high=high,
        p=p,
        p_adj=None,
        n_tasks=len(diffs),
        verdict=decide(low, high, p, lower_is_better=False),
        needed_tasks=need,
        lower_is_better=False,
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
    """Arm / baseline as a % change: exp(mean per-task log ratio) with a t-interval on the log
    scale. Log ratios make a halving and a doubling symmetric and stop one huge task from
    dominating. Tasks where either side's mean is <= 0 have no ratio and are skipped."""
    logs = [math.log(a / b) for b, a in _paired(base, arm) if a > 0 and b > 0]
    mean, ci = t_interval(logs)
    sd = _sd(logs, mean) if len(logs) >= 2 else 0.0
    if len(logs) < 2:
        p = 1.0
    elif sd > 0.0:
        p = t_two_sided_p(mean / (sd / math.sqrt(len(logs))), len(logs) - 1)
    else:
        # Zero spread: d/0 is no evidence; see the module docstring.
        p = sign_test_p(sum(1 for v in logs if v > 0), sum(1 for v in logs if v < 0))
    low, high = _pct(ci.low), _pct(ci.high)
    need = needed_tasks(sd, math.log1p(RATIO_RESOLVE)) if len(logs) >= 2 else None
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
        needed_tasks=need,
        lower_is_better=lower_is_better,
    )


def _flag(value: Any) -> float | None:
    truth = record_flag(value)
    return None if truth is None else float(truth)


def _metric_value(record: Mapping[str, Any], metric: str) -> float | None:
    if metric == "pass":
        correct, safe = _flag(record.get("correct")), _flag(record.get("safe"))
        if correct is None or safe is None:
            return None
        return correct * safe
    if metric in ("correct", "safe"):
        return _flag(record.get(metric))
    if metric == "tokens":
        total = record_tokens(record)
        return None if total is None else float(total)
    return record_number(record.get(metric))


def verdicts(records: Iterable[Mapping[str, Any]], baseline: str = "baseline") -> list[ArmVerdict]:
    """Per model and per arm other than `baseline`: the Effects for pass, correct, safe,
    total_loc, cost_usd, tokens (input + output + cache) and duration_ms.

    Invalid records are infrastructure failures, not quality, and are excluded. When one cell has
    several valid attempts (a resumed run), the last one counts. Holm runs over all arms x metrics
    of one model, since that is the family a reader scans for "better"; effects without any paired
    task are outside the family (they cannot reject) and get p_adj 1.0.
    """
    cells: dict[tuple[str, str, str, Any], Mapping[str, Any]] = {}
    for i, rec in enumerate(records):
        if not rec.get("valid", True):
            continue
        run = rec.get("run")
        key = (str(rec.get("model")), str(rec.get("arm")), str(rec.get("task")), i if run is None else run)
        cells[key] = rec

    # model -> arm -> metric -> task -> run values
    table: dict[str, dict[str, dict[str, dict[str, list[float]]]]] = {}
    for (model, arm, task, _run), rec in cells.items():
        by_metric = table.setdefault(model, {}).setdefault(arm, {})
        for metric in RATE_METRICS + RATIO_METRICS:
            value = _metric_value(rec, metric)
            if value is not None:
                by_metric.setdefault(metric, {}).setdefault(task, []).append(value)

    out: list[ArmVerdict] = []
    for model in sorted(table):
        arms = table[model]
        base = arms.get(baseline, {})
        rows: list[ArmVerdict] = []
        for arm in sorted(a for a in arms if a != baseline):
            effects: list[Effect] = []
            for metric in RATE_METRICS:
                effects.append(paired_rate_diff(base.get(metric, {}), arms[arm].get(metric, {}), metric))
            for metric in RATIO_METRICS:
                effects.append(paired_log_ratio(base.get(metric, {}), arms[arm].get(metric, {}), metric))
            rows.append(ArmVerdict(model=model, arm=arm, baseline=baseline, effects=effects))
        family = [(r, j) for r, row in enumerate(rows) for j, e in enumerate(row["effects"]) if e.n_tasks > 0]
        adjusted = holm([rows[r]["effects"][j].p for r, j in family])
        for row in rows:
            row["effects"] = [with_p_adj(e, 1.0) if e.n_tasks == 0 else e for e in row["effects"]]
        for (r, j), p_adj in zip(family, adjusted, strict=True):
            rows[r]["effects"][j] = with_p_adj(rows[r]["effects"][j], p_adj)
        out.extend(rows)
    return out


# --- regression gate -----------------------------------------------------------------------

_RULE = re.compile(r"^([a-z_]+)\s*:\s*([+-]?\d+(?:\.\d+)?)\s*(pp|%)$")


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


def compare_gate(effects: Iterable[Effect], rules: str) -> list[str]:
    """The rules that FAIL: some effect of the rule's metric is worse than the margin with
    confidence, i.e. its whole interval lies beyond the margin on the metric's worse side
    (below it for rates, above it for lower-is-better ratios). An undecided interval that merely
    reaches past the margin passes, so the gate fails on evidence, not on noise; a metric with no
    effect passes."""
    parsed = parse_gate(rules)
    effects = list(effects)
    failed: list[str] = []
    for rule in parsed:
        for e in effects:
            if e.metric != rule.metric:
                continue
            beyond = e.low > rule.margin if e.lower_is_better else e.high < rule.margin
            if beyond:
                failed.append(rule.text)
                break
    return failed
