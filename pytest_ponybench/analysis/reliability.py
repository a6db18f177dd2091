"""Reliability per arm: pass^k and pass@k over tasks, with intervals. Pure functions.

The pass rate says how often a cell passes; reliability says what a user of the arm meets on a
task they run k times. pass^k is the share of tasks on which every one of k runs passes (does
the arm get it right *every* time), pass@k the share on which at least one does (can it get it
right at all). With k = 1 both are the pass rate, so they are shown from k = 2 on.

A task with n >= k valid runs of which c passed contributes the chance that k runs drawn from
its n without replacement all pass, C(c, k) / C(n, k), and that at least one does,
1 - C(n - c, k) / C(n, k): the unbiased estimators (the second is the pass@k estimator of
code-generation benchmarks), equal to 0 or 1 when the task has exactly k runs. The interval is
Wilson's over tasks (the task is the unit, as in the verdicts), on the summed per-task values:
exact in form when every task has k runs, conservative when some have more (a per-task
fraction varies less than a 0/1).

A task with fewer than k valid, scored runs is left out of the figure and counted, and bounded
like pass's invalid cells: the interval's low end counts it as a task that fails, its high end
as one that passes. The tasks left out for a short run are seldom a random sample (a run
invalid on a hard task hides a failure), so an interval over the rest alone would cover too
little.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from pytest_ponybench.core.records import Record, is_scored, is_valid, latest

__all__ = ["Reliability", "describe", "per_arm", "planned_runs", "reliability", "task_any", "task_every"]


@dataclass(frozen=True)
class Reliability:
    """pass^k and pass@k of one arm on one model, each with its 95 % Wilson interval over tasks,
    bounded over the tasks left out (counted as failing at the low end, passing at the high)."""

    k: int
    tasks: int  # tasks with at least k valid runs: the base of both figures
    short: int  # tasks left out: fewer than k valid, scored runs
    every: float  # pass^k
    every_low: float
    every_high: float
    any: float  # pass@k
    any_low: float
    any_high: float


def _wilson(total: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's score interval for a (possibly fractional) success count over n units."""
    if n <= 0:
        return 0.0, 1.0
    phat = min(1.0, max(0.0, total / n))
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (phat + z2 / (2 * n)) / denom
    half = z * math.sqrt(phat * (1 - phat) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if phat <= 0.0 else max(0.0, centre - half)
    high = 1.0 if phat >= 1.0 else min(1.0, centre + half)
    return low, high


def task_every(n: int, c: int, k: int) -> float:
    """The chance that k of a task's n runs (c passed), drawn without replacement, all pass."""
    return math.comb(c, k) / math.comb(n, k)


def task_any(n: int, c: int, k: int) -> float:
    """The chance that at least one of k of a task's n runs (c passed) passes."""
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def _bounded(total: float, n: int, short: int) -> tuple[float, float]:
    """Wilson's interval over n tasks, widened over `short` tasks left out: its low end with them
    failing, its high end with them passing."""
    if not short:
        return _wilson(total, n)
    return _wilson(total, n + short)[0], _wilson(total + short, n + short)[1]


def reliability(outcomes: Mapping[str, Sequence[bool]], k: int) -> Reliability:
    """pass^k and pass@k over tasks from each task's valid runs' pass outcomes."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    every: list[float] = []
    anyone: list[float] = []
    short = 0
    for runs in outcomes.values():
        n, c = len(runs), sum(bool(r) for r in runs)
        if n < k:
            short += 1
            continue
        every.append(task_every(n, c, k))
        anyone.append(task_any(n, c, k))
    n_tasks = len(every)
    e_low, e_high = _bounded(sum(every), n_tasks, short)
    a_low, a_high = _bounded(sum(anyone), n_tasks, short)
    return Reliability(
        k=k,
        tasks=n_tasks,
        short=short,
        every=sum(every) / n_tasks if n_tasks else 0.0,
        every_low=e_low,
        every_high=e_high,
        any=sum(anyone) / n_tasks if n_tasks else 0.0,
        any_low=a_low,
        any_high=a_high,
    )


def planned_runs(cells_per_task: Iterable[int]) -> int:
    """The runs per task the grid was planned with: the most common cell count per task
    (invalid cells included), the larger on a tie."""
    counts = Counter(cells_per_task)
    if not counts:
        return 0
    return max(counts, key=lambda runs: (counts[runs], runs))


def per_arm(
    records: Iterable[Record], outcome: Callable[[Record], float | None], k: int | None = None
) -> dict[tuple[str, str], Reliability]:
    """(model, arm) -> its reliability, from the latest attempt of every scored cell;
    `outcome` is a valid cell's pass (1.0, 0.0) or None where it has none (unscored: left out
    like an invalid run). `k` is the planned runs per task of that model and arm unless given;
    arms with k < 2 are left out (at one run pass^k and pass@k are the pass rate)."""
    valid: dict[tuple[str, str], dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    cells: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for rec in latest(records):
        if not is_scored(rec):
            continue
        key = (str(rec.get("model")), str(rec.get("arm")))
        task = str(rec.get("task"))
        cells[key][task] += 1
        passed = outcome(rec) if is_valid(rec) else None
        if passed is not None:
            valid[key][task].append(passed == 1.0)
    out: dict[tuple[str, str], Reliability] = {}
    for key, per_task in cells.items():
        runs = k if k is not None else planned_runs(per_task.values())
        if runs < 2:
            continue
        outcomes = {t: valid[key].get(t, []) for t in per_task}
        out[key] = reliability(outcomes, runs)
    return out


def describe(arm: str, r: Reliability) -> str:
    """ "mine: pass^3 9/20 tasks (45%, Wilson 26-66%), pass@3 17/20 tasks (85%, Wilson 64-95%)";
    with tasks left out, how many, and the intervals bounded over them."""
    if r.tasks == 0:
        return f"{arm}: no task with {r.k} valid runs" + (f" ({r.short} left out)" if r.short else "")
    label = "Wilson" if not r.short else "Wilson, bounded"
    short = (
        f"; {r.short} task(s) with fewer than {r.k} valid runs left out, bounded (counted failing "
        f"at the low end, passing at the high)"
        if r.short
        else ""
    )
    return (
        f"{arm}: pass^{r.k} {_count(r.every, r.tasks)} ({_pct(r.every)}, {label} "
        f"{_pct(r.every_low, False)}-{_pct(r.every_high)}), pass@{r.k} {_count(r.any, r.tasks)} "
        f"({_pct(r.any)}, {label} {_pct(r.any_low, False)}-{_pct(r.any_high)}){short}"
    )


def _count(share: float, n: int) -> str:
    total = share * n
    shown = f"{total:.0f}" if abs(total - round(total)) < 1e-9 else f"{total:.1f}"
    return f"{shown}/{n} tasks"


def _pct(x: float, sign: bool = True) -> str:
    return f"{100 * x:.0f}%" if sign else f"{100 * x:.0f}"
