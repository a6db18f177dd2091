"""Invalid, unscored and missing cells: what was left out of a comparison, in words, and the
bound on a rate with those cells filled in both extreme ways.

Invalid cells are infrastructure failures, not quality, and are left out of the effects; so are
unscored ones (a valid session whose correct/safe the scorer never gave: it did not run). But
where an arm's share of them differs from the baseline's, the cells left out may not be a random
sample of its work. So the primary rate (pass, and score) is also computed with the arm's
left-out cells counted as failures and the baseline's as passes (and the reverse), and a
direction is decided only where that bound agrees; the interval shown spans the three. Where the
valid cells alone would have decided and the bound did not let them, the effect says so
(`Effect.vetoed`): rerunning the invalid cells, not more tasks, is what would settle it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from pytest_ponybench.analysis.stats.cells import ArmCells
from pytest_ponybench.analysis.stats.effects import TWO_SIDED, UNDECIDED, Effect, decide, paired_rate_diff
from pytest_ponybench.analysis.stats.metrics import (
    BOUNDED,
    MISSING_WHY,
    RATE_METRICS,
    RATIO_METRICS,
    SCORE,
    short_name,
)

__all__ = ["Bound", "INVALID_GAP", "bound", "bounded", "notes"]

# An arm whose share of invalid cells differs from the baseline's by more than this gets a
# warning: the cells left out may not be a random sample of its work.
INVALID_GAP = 0.10


@dataclass(frozen=True)
class Bound:
    """The primary rate with its missing cells filled in both extreme ways.

    `worst`: the arm's invalid and unscored cells counted as failures (score 0) and the
    baseline's as passes (1); `best`: the reverse. `valid`: the effect on the valid cells alone.
    A direction is decided only where the bound on that side agrees (better needs `worst`, worse
    needs `best`). The counts are over the tasks the metric applies to."""

    metric: str
    arm_invalid: int
    arm_cells: int
    base_invalid: int
    base_cells: int
    valid: Effect
    worst: Effect
    best: Effect
    arm_unscored: int = 0
    base_unscored: int = 0


def _bad_note(arm: str, baseline: str, cells: ArmCells, base: ArmCells, metrics: Sequence[str]) -> str | None:
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
            parts.append(f"{short_name(metric)}: {', '.join(sides)}")
    if not parts:
        return None
    return "numbers that are not measurements, left out as missing: " + "; ".join(parts)


def notes(
    arm: str,
    baseline: str,
    cells: ArmCells,
    base: ArmCells,
    metrics: Sequence[str] = RATE_METRICS + RATIO_METRICS,
) -> list[str]:
    """What was left out of this comparison, in words, each with its count."""
    out: list[str] = []
    for name, side in ((arm, cells), (baseline, base)):
        if side.cells and side.invalid == side.cells:
            out.append(
                f"{name} has no valid cell ({side.invalid} of {side.cells} invalid): nothing to compare"
            )
        elif not side.cells:
            out.append(f"{name} has no cell for this model")
    if cells.cells and base.cells and cells.invalid < cells.cells and base.invalid < base.cells:
        rate_a, rate_b = cells.invalid / cells.cells, base.invalid / base.cells
        if abs(rate_a - rate_b) > INVALID_GAP:
            out.append(
                f"warning: {arm} has {100 * rate_a:.0f}% invalid cells ({cells.invalid} of {cells.cells}), "
                f"{baseline} {100 * rate_b:.0f}% ({base.invalid} of {base.cells}); invalid cells are left "
                f"out, so its quality figures may be biased"
            )
    if cells.cells and base.cells:
        for name, side, other in ((arm, cells, base), (baseline, base, cells)):
            alone = sorted(side.cells_by_task.keys() - other.cells_by_task.keys())
            if alone:
                out.append(
                    f"left out of the pairs and of pass^k: {_count(len(alone), 'task')} with cells of "
                    f"{name} only ({_names(alone)})"
                )
    if cells.skills_available and not cells.skills_used:
        names = ", ".join(sorted(cells.skills_available))
        out.append(
            f"warning: {arm}'s plugin registered {names} in {cells.skill_cells} cells and no session "
            f"used it: the arm was loaded but not exercised"
        )
    if cells.outside or base.outside:
        out.append(
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
            out.append(f"{short_name(metric)}: cells with {why}: {per_arm}")
            continue
        have_a = cells.values.get(metric, {}).keys()
        have_b = base.values.get(metric, {}).keys()
        dropped = len([t for t in shared if t not in have_a or t not in have_b])
        tasks = f"{dropped} of {len(shared)} tasks left out (no value on one side); " if dropped else ""
        out.append(f"{short_name(metric)}: {tasks}cells that {why}, left out: {per_arm}")
    bad = _bad_note(arm, baseline, cells, base, metrics)
    if bad is not None:
        out.append(bad)
    return out


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _names(items: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _filled(
    values: Mapping[str, Sequence[float]], gaps: Mapping[str, int], tasks: Iterable[str], fill: float
) -> dict[str, list[float]]:
    return {t: [*values.get(t, []), *([fill] * gaps.get(t, 0))] for t in tasks}


def _universe(metric: str, base: ArmCells, mine: ArmCells) -> list[str]:
    """The tasks a bounded rate applies to on both sides: those with checks for pass, those
    where graders gave some cell a score for score."""
    shared = base.cells_by_task.keys() & mine.cells_by_task.keys()
    if metric == SCORE:
        scored = base.values.get(SCORE, {}).keys() | mine.values.get(SCORE, {}).keys()
        return sorted(shared & scored)
    return sorted(t for t in shared if t in base.pass_tasks | mine.pass_tasks)


def bound(
    metric: str, base: ArmCells, mine: ArmCells, confidence: float = 0.95, direction: str = TWO_SIDED
) -> Bound | None:
    """The worst and best case of a bounded rate (pass, score) with the invalid and unscored
    cells filled in, when the arm's and the baseline's shares of them differ; None when they do
    not (or a side has no cell). Tasks where one side has only such cells take part here."""
    if metric not in BOUNDED or not base.cells or not mine.cells:
        return None
    tasks = _universe(metric, base, mine)
    gaps_b, gaps_a = base.gaps(metric), mine.gaps(metric)
    n_b = sum(base.cells_by_task[t] for t in tasks)
    n_a = sum(mine.cells_by_task[t] for t in tasks)
    k_b = sum(gaps_b.get(t, 0) for t in tasks)
    k_a = sum(gaps_a.get(t, 0) for t in tasks)
    if not n_a or not n_b or k_a * n_b == k_b * n_a:
        return None
    b_vals, a_vals = base.values.get(metric, {}), mine.values.get(metric, {})

    def filled_in(b_fill: float, a_fill: float) -> Effect:
        b, a = _filled(b_vals, gaps_b, tasks, b_fill), _filled(a_vals, gaps_a, tasks, a_fill)
        return paired_rate_diff(b, a, metric, confidence, direction)

    worst, best = filled_in(1.0, 0.0), filled_in(0.0, 1.0)
    inv_a = sum(mine.invalid_by_task.get(t, 0) for t in tasks)
    inv_b = sum(base.invalid_by_task.get(t, 0) for t in tasks)
    return Bound(
        metric=metric,
        arm_invalid=inv_a,
        arm_cells=n_a,
        base_invalid=inv_b,
        base_cells=n_b,
        valid=paired_rate_diff(b_vals, a_vals, metric, confidence, direction),
        worst=worst,
        best=best,
        arm_unscored=k_a - inv_a,
        base_unscored=k_b - inv_b,
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
    return replace(effect, p=p, low=low, high=high, verdict=verdict, zero_spread=effect.zero_spread)
