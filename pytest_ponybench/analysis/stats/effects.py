"""One metric of one arm against the baseline, paired by task: the `Effect`, its estimate and
interval, and the word it is decided with.

The decision rule for every metric is the paired t-test over tasks: its 95 % t-interval is the
interval shown, its p (adjusted over the family, `rows.adjust`) decides, and the power hint is
the same test's power at the hypothesis's level (`power.py`). Units: a rate difference
(`kind="rate_diff"`) is in percentage points, a ratio (`kind="ratio"`) a % change (-20.0 means
the arm uses 20 % less); no change is 0.0 in both. Ratios are taken on the log scale, so a
halving and a doubling are symmetric and one huge task cannot dominate.

A rate whose tasks all moved by the same amount (zero spread; most often every task tied, every
cell failing on both arms) has no spread for the t-test to go by; the sign test decides it, and
its interval is Newcombe's for the two arms' cell rates, which reflects the binomial noise of the
cells (0/10 against 0/10: about +/-28 points) instead of the point a tie would give. Such an
effect is never "negligible": tasks that no arm can pass (or every arm passes) say nothing about
the size of a difference.

With a pre-declared direction (`direction="better"`, the primary only) the interval's two ends
are one-sided at different levels (`procedure.BETTER_SHARE`) and the p is the directional test's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pytest_ponybench.analysis import procedure
from pytest_ponybench.analysis.stats.distributions import (
    ALPHA,
    Interval,
    newcombe,
    normal_upper_quantile,
)
from pytest_ponybench.analysis.stats.metrics import BREAKDOWN
from pytest_ponybench.analysis.stats.power import (
    RATE_RESOLVE,
    RATIO_RESOLVE,
    Spread,
    needed_runs,
    needed_tasks,
)
from pytest_ponybench.analysis.stats.sample import paired_t_p, sample_sd, square, t_interval, task_means

__all__ = [
    "BETTER",
    "Effect",
    "NEGLIGIBLE",
    "TWO_SIDED",
    "UNDECIDED",
    "WORSE",
    "decide",
    "directed_p",
    "is_negligible",
    "tails",
    "paired_log_ratio",
    "paired_rate_diff",
    "with_p_adj",
]

BETTER = "better"
WORSE = "worse"
UNDECIDED = "undecided"
TWO_SIDED = procedure.DIRECTIONS[0]

# A change whose whole interval lies within this many points (rates) or percent (ratios) of
# no change is too small to matter: one extra token per task is "significant" with no spread,
# and calling that "worse" would mislead.
NEGLIGIBLE = 1.0


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
    `zero_spread`: every task moved by the same amount, so the sign test decided (a rate's
    interval is then Newcombe's over the cells). `cells`: for a rate, the arm's and the
    baseline's summed values and cell counts over the paired tasks. `direction`: "better" for a
    primary tested in a pre-declared direction. `untested`: why a metric that is usually tested
    is not (durations below their resolution). `repeated`: a sequential run's primary, its
    interval the repeated confidence interval at this nominal level (its estimate biased by
    stopping). `vetoed`: the missing cells' bound, not the data, left it undecided.
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
    cells: tuple[float, int, float, int] | None = None
    direction: str = TWO_SIDED
    untested: str | None = None
    repeated: float | None = None
    vetoed: bool = False

    @property
    def tied(self) -> bool:
        """A rate on which every paired task tied (zero spread at no change): the tasks told the
        arms nothing, and its interval is the cells' binomial noise."""
        return self.kind == "rate_diff" and self.zero_spread and self.estimate == 0.0


def is_negligible(low: float, high: float) -> bool:
    """An interval wholly within +/-NEGLIGIBLE of no change. A rate with zero spread is never
    called so (its callers check `Effect.zero_spread` first): a tie is no evidence of a size."""
    return -NEGLIGIBLE < low and high < NEGLIGIBLE


def tails(
    confidence: float, direction: str = TWO_SIDED, lower_is_better: bool = False
) -> tuple[float, float]:
    """The chance an interval at `confidence` leaves below its low end and above its high end:
    alike both ways, or with a pre-declared "better" the better side's end at BETTER_SHARE of
    it (a rate's low end, a cost's high end) and the other end at the rest."""
    miss = 1.0 - confidence
    if direction == TWO_SIDED:
        return miss / 2.0, miss / 2.0
    if direction not in procedure.DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r} (known: {', '.join(procedure.DIRECTIONS)})")
    better, worse = miss * procedure.BETTER_SHARE, miss * (1.0 - procedure.BETTER_SHARE)
    return (worse, better) if lower_is_better else (better, worse)


def directed_p(p: float, estimate: float, lower_is_better: bool, direction: str = TWO_SIDED) -> float:
    """A two-sided p (twice the one-sided tail on the estimate's side) as the directional test's:
    the tail over BETTER_SHARE on the better side, over the rest on the worse side, so that it
    is below a level exactly where that side's one-sided test rejects at its part of it."""
    if direction == TWO_SIDED:
        return p
    if estimate == 0.0:
        return 1.0
    better_side = estimate < 0.0 if lower_is_better else estimate > 0.0
    share = procedure.BETTER_SHARE if better_side else 1.0 - procedure.BETTER_SHARE
    return min(1.0, p / 2.0 / share)


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
        # The hint is for "better": one-sided at its share of the level is two-sided at twice it.
        hint_level = (
            min(0.5, 2.0 * procedure.BETTER_SHARE * level) if effect.direction != TWO_SIDED else level
        )
        need = needed_tasks(effect.spread.sd, delta, hint_level)
        # Tasks take authoring; runs only cells. Where runs on the tasks there are can get there
        # (run noise, not task-to-task disagreement, is the spread), say how many.
        runs = needed_runs(effect.spread, delta, effect.n_tasks, hint_level)
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
            s2 = sum(square(v - m) for v in side) / (r - 1)
            var += s2 / r / (m * m if transform == "log" and m > 0 else 1.0)
        parts.append(var)
    return (_mean(parts) if parts else None), _mean(runs)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _cell_counts(
    base: Mapping[str, Sequence[float]], arm: Mapping[str, Sequence[float]], tasks: Sequence[str]
) -> tuple[float, int, float, int]:
    """The arm's and the baseline's summed values and cells over these tasks."""
    a = [v for t in tasks for v in arm[t]]
    b = [v for t in tasks for v in base[t]]
    return sum(a), len(a), sum(b), len(b)


def _newcombe(cells: tuple[float, int, float, int], low_tail: float, high_tail: float) -> Interval:
    """Newcombe's interval for the arm's cell rate less the baseline's, each end at its tail."""
    k_a, n_a, k_b, n_b = cells
    low = newcombe(k_a, n_a, k_b, n_b, normal_upper_quantile(low_tail)).low
    high = newcombe(k_a, n_a, k_b, n_b, normal_upper_quantile(high_tail)).high
    return Interval(low, high)


def paired_rate_diff(
    base: Mapping[str, Sequence[float]],
    arm: Mapping[str, Sequence[float]],
    metric: str = "pass",
    confidence: float = 0.95,
    direction: str = TWO_SIDED,
) -> Effect:
    """Arm minus baseline rate, in percentage points: the mean of per-task differences, the
    paired t-test and its t-interval over tasks (at `confidence`: 95 % unless a sequential look
    asks for its own). Where every task moved alike (zero spread), the sign test decides and
    the interval is Newcombe's for the cells (the module's docstring says why). `direction`
    "better" makes it the directional test (the primary's, when declared)."""
    pairs = _paired(base, arm)
    diffs = [a - b for _, b, a in pairs]
    low_tail, high_tail = tails(confidence, direction)
    mean, ci = t_interval(diffs, confidence, tails=(low_tail, high_tail))
    p = paired_t_p(diffs)
    sd = sample_sd(diffs, mean)
    tasks = [t for t, _, _ in pairs]
    cells = _cell_counts(base, arm, tasks)
    zero = len(diffs) >= 2 and sd == 0.0
    if zero:
        ci = _newcombe(cells, low_tail, high_tail)
    # A difference of rates cannot leave [-100, 100] pp; clip the t-interval's tails to that.
    low = max(-100.0, 100.0 * ci.low)
    high = min(100.0, 100.0 * ci.high)
    p = directed_p(p, mean, False, direction)
    spread = None
    if len(diffs) >= 2:
        within, runs = _within_var(base, arm, tasks)
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
        zero_spread=zero,
        spread=spread,
        cells=cells,
        direction=direction,
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
    direction: str = TWO_SIDED,
) -> Effect:
    """Arm / baseline as a % change: exp(mean per-task log ratio), the paired t-test and its
    interval on the log scale. Log ratios make a halving and a doubling symmetric and stop one
    huge task from dominating. Tasks where either side's mean is <= 0 have no ratio: `verdicts`
    keeps such values out beforehand and says so. `direction` as for `paired_rate_diff`."""
    pairs = [(t, b, a) for t, b, a in _paired(base, arm) if a > 0 and b > 0]
    logs = [_log_ratio(a, b) for _, b, a in pairs]
    mean, ci = t_interval(logs, confidence, tails=tails(confidence, direction, lower_is_better))
    sd = sample_sd(logs, mean)
    p = directed_p(paired_t_p(logs), mean, lower_is_better, direction)
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
        direction=direction,
    )
