"""The verdict rows: per model and arm against the baseline, every metric's effect, bounded
where invalid shares differ, with the notes, reliability and the A/A twin flag; and the
multiplicity adjustment that decides them within their family.

The primary metric (pass unless declared) is tested first at most of the block's level; the
secondaries (loc, cost, tokens, time, and score where graders give one) share the rest; the
family is every arm of one model, or every arm and model of the run (`procedure.py`). `correct`
and `safe` are shown as the breakdown of pass (which axis moved) but not tested on their own:
pass is their conjunction, so testing all three asks one question three times and costs every
other metric power.

Where no task has a pass to give (every task graded by graders alone, an imported `claude plugin
eval` suite), score is the primary: the block is decided on score. Durations recorded in whole
seconds (claude plugin eval's) are not tested where a second is more than `RESOLUTION` of a
cell's time: rounding alone would move a ratio by more than the change a verdict resolves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TypedDict

from pytest_ponybench.analysis import procedure
from pytest_ponybench.analysis.procedure import Family
from pytest_ponybench.analysis.reliability import Reliability
from pytest_ponybench.analysis.reliability import per_arm as reliability_per_arm
from pytest_ponybench.analysis.stats.cells import ArmCells, collect
from pytest_ponybench.analysis.stats.distributions import ALPHA
from pytest_ponybench.analysis.stats.effects import (
    TWO_SIDED,
    UNDECIDED,
    Effect,
    decide,
    paired_log_ratio,
    paired_rate_diff,
    with_p_adj,
)
from pytest_ponybench.analysis.stats.metrics import (
    PRIMARY,
    RATIO_METRICS,
    SCORE,
    all_metrics,
    canonical_metric,
    has_scores,
    pass_value,
    tested_metrics,
)
from pytest_ponybench.analysis.stats.missing import Bound, bound, bounded, notes
from pytest_ponybench.analysis.stats.sample import task_rate
from pytest_ponybench.core.records import Record, is_scored

__all__ = ["ArmVerdict", "RESOLUTION", "adjust", "below_resolution", "primary_of", "verdicts"]

# Durations in whole seconds are tested only where half a second, their rounding, is at most
# this share of a cell's median time (10 s and up): below it, rounding decides the ratio.
RESOLUTION = 0.05


class ArmVerdict(TypedDict):
    model: str
    arm: str
    baseline: str
    effects: list[Effect]
    notes: list[str]  # cells and tasks left out, arms without valid cells, invalid-rate gaps
    primary: str
    family: Family
    bounds: list[Bound]  # pass (and score) where the arm's and the baseline's invalid shares differ
    reliability: dict[str, Reliability]  # arm and baseline over their shared tasks (k >= 2 runs only)
    twin: bool  # the arm's content hash is the baseline's: an A/A, the run's measured floor
    primary_why: str | None  # why the primary is not the one declared (no task has a pass)
    # The primary rate (pass, or score) of each side over the population of tasks like these:
    # (metric, {arm: (rate, low, high)}), from `sample.task_rate`; None for a ratio primary.
    task_rates: tuple[str, dict[str, tuple[float, float, float]]] | None


def _effect(
    metric: str,
    base: ArmCells,
    mine: ArmCells,
    tested: bool,
    primary: bool,
    confidence: float,
    direction: str = TWO_SIDED,
) -> Effect:
    b, a = base.values.get(metric, {}), mine.values.get(metric, {})
    if metric in RATIO_METRICS:
        e = paired_log_ratio(b, a, metric, confidence=confidence, direction=direction)
    else:
        e = paired_rate_diff(b, a, metric, confidence, direction)
    verdict = decide(e.low, e.high, e.p, e.lower_is_better) if tested else UNDECIDED
    return replace(e, tested=tested, primary=primary, verdict=verdict)


def below_resolution(base: ArmCells, mine: ArmCells) -> str | None:
    """Why durations are not tested: every one in whole seconds, and half a second more than
    RESOLUTION of the median; None when they can be tested."""
    values = [
        v for side in (base, mine) for runs in side.values.get("duration_ms", {}).values() for v in runs
    ]
    if not values or any(v % 1000.0 for v in values):
        return None
    ordered = sorted(values)
    median = ordered[len(ordered) // 2]
    if 500.0 <= RESOLUTION * median:
        return None
    low, high = ordered[0] / 1000.0, ordered[-1] / 1000.0
    return f"durations in whole seconds ({low:.0f}-{high:.0f} s): below their resolution, not tested"


def _is_twin(mine: ArmCells, base: ArmCells) -> bool:
    """One content hash on record for each side, and the same: an arm identical to the baseline."""
    return len(mine.hashes) == 1 and mine.hashes == base.hashes


def _row(
    model: str,
    arm: str,
    baseline: str,
    mine: ArmCells,
    base: ArmCells,
    primary: str,
    has_score: bool,
    records: Sequence[Record],
    twins: bool,
    confidence: float,
    direction: str,
    primary_why: str | None,
) -> ArmVerdict:
    tested = tested_metrics(primary, has_score)
    coarse = below_resolution(base, mine)
    effects: list[Effect] = []
    bounds: list[Bound] = []
    for metric in all_metrics(has_score):
        leading = metric == primary
        way = direction if leading else TWO_SIDED
        testable = metric in tested and not (metric == "duration_ms" and coarse is not None)
        e = _effect(metric, base, mine, testable, leading, confidence, way)
        if metric == "duration_ms" and coarse is not None:
            e = replace(e, untested=coarse)
        b = bound(metric, base, mine, confidence, way) if e.tested else None
        if b is not None:
            bounds.append(b)
            e = bounded(e, b)
        effects.append(e)
    # pass^k and pass@k over the tasks both sides have, as the paired effects are.
    shared = mine.cells_by_task.keys() & base.cells_by_task.keys()
    paired = [r for r in records if str(r.get("task")) in shared]
    found = reliability_per_arm(paired, pass_value)
    return ArmVerdict(
        model=model,
        arm=arm,
        baseline=baseline,
        effects=effects,
        notes=notes(arm, baseline, mine, base, all_metrics(has_score)),
        primary=primary,
        family=Family("model", f"every arm of {model}", 1, 0),  # set by adjust
        bounds=bounds,
        reliability={a: found[(model, a)] for a in (arm, baseline) if (model, a) in found},
        twin=twins and _is_twin(mine, base),
        primary_why=primary_why,
        task_rates=_task_rates(primary, {arm: mine, baseline: base}),
    )


def _task_rates(
    primary: str, sides: Mapping[str, ArmCells]
) -> tuple[str, dict[str, tuple[float, float, float]]] | None:
    metric = primary if primary in (PRIMARY, SCORE) else PRIMARY
    rates: dict[str, tuple[float, float, float]] = {}
    for name, side in sides.items():
        values = side.values.get(metric, {})
        if values:
            rate, ci = task_rate(values)
            rates[name] = (rate, ci.low, ci.high)
    return (metric, rates) if rates else None


def primary_of(records: Sequence[Record], primary: str) -> tuple[str, str | None]:
    """The primary a block is decided on, and why when it is not `primary`: score where pass
    has nothing to go by (no task with checks or graders on an axis) and graders gave scores."""
    metric = canonical_metric(primary)
    if metric == PRIMARY and not any(is_scored(r) for r in records) and has_scores(records):
        return SCORE, "score is the primary: every task is graded by graders alone, so no cell has a pass"
    return metric, None


def _vetoed(row: ArmVerdict) -> None:
    """Mark an undecided bounded effect whose valid cells alone would have been decided at its
    level: the bound on the invalid cells, not the data, left it undecided."""
    for b in row["bounds"]:
        for j, e in enumerate(row["effects"]):
            if e.metric != b.metric or not e.tested or e.verdict != UNDECIDED:
                continue
            v = b.valid
            if decide(v.low, v.high, v.p, v.lower_is_better, alpha=e.level) != UNDECIDED:
                row["effects"][j] = replace(e, vetoed=True)


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
    direction: str = TWO_SIDED,
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
    None). `direction` "better" tests the primary in that pre-declared direction
    (`procedure.BETTER_SHARE`). Raises ValueError for an unknown primary, family or direction.
    """
    records = list(records)
    primary, why = primary_of(records, primary)
    if family not in procedure.FAMILIES:
        raise ValueError(f"unknown family {family!r} (known: {', '.join(procedure.FAMILIES)})")
    if direction not in procedure.DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r} (known: {', '.join(procedure.DIRECTIONS)})")
    score = has_scores(records) or primary == SCORE
    table = collect(records, score)
    rows: list[ArmVerdict] = []
    for model in sorted(table):
        arms = table[model]
        base = arms.get(baseline, ArmCells())
        mine_records = [r for r in records if str(r.get("model")) == model]
        for arm in sorted(a for a in arms if a != baseline):
            pair = [r for r in mine_records if str(r.get("arm")) in (arm, baseline)]
            rows.append(
                _row(
                    model,
                    arm,
                    baseline,
                    arms[arm],
                    base,
                    primary,
                    score,
                    pair,
                    twins,
                    confidence,
                    direction,
                    why,
                )
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
    level it met (decided exactly when it is below alpha), kept monotone along the steps. An
    undecided bounded effect whose valid cells alone would have been decided at its level is
    marked `vetoed`."""
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
        for row in rows:
            _vetoed(row)
