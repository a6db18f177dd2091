"""What a verdict block says besides its table: the procedure and the family it is decided in
(and, after a sequential stop, what its interval is), the cells passed and the rate over tasks
like these, the missing cells' bound (and where it, not the data, left a verdict undecided: the
figure on valid cells and the command that reruns the invalid ones), reliability (pass^k,
pass@k) and the noise floor.

Each is one line (or a few) of plain words, the same in the text, the Markdown and the HTML
report, which all put them around their own table (`render.py`, htmlreport/).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pytest_ponybench.analysis import noise, procedure, reliability, stats
from pytest_ponybench.analysis.stats import ArmVerdict, Bound, Effect
from pytest_ponybench.analysis.stats.metrics import pass_value
from pytest_ponybench.analysis.verdict.words import (
    METRIC_NAMES,
    fmt_estimate,
    fmt_interval,
    fmt_level,
    is_decided,
    metric_list,
)
from pytest_ponybench.core.records import Record, is_scored, is_valid, latest

__all__ = [
    "TWIN_NOTE",
    "bound_line",
    "family_line",
    "floor_line",
    "footer_lines",
    "header_lines",
    "paired_tasks",
    "pass_counts",
    "pass_line",
    "pass_rate_text",
    "procedure_line",
    "reliability_lines",
    "rerun_lines",
    "sequential_line",
    "task_rate_line",
]


def pass_counts(records: Sequence[Record]) -> dict[tuple[str, str], tuple[int, int, int, int]]:
    """(model, arm) -> (passed cells, valid scored cells, invalid cells, unscored cells) over the
    latest attempt of every cell; an unscored cell (no correct/safe from the scorer) is in
    neither of the first two."""
    counts: dict[tuple[str, str], tuple[int, int, int, int]] = {}
    for rec in latest(records):
        if not is_scored(rec):
            continue  # an open task has nothing to pass
        key = (str(rec.get("model")), str(rec.get("arm")))
        k, n, bad, unscored = counts.get(key, (0, 0, 0, 0))
        if not is_valid(rec):
            counts[key] = (k, n, bad + 1, unscored)
        elif (value := pass_value(rec)) is not None:
            counts[key] = (k + int(value), n + 1, bad, unscored)
        else:
            counts[key] = (k, n, bad, unscored + 1)
    return counts


def pass_rate_text(k: int, n: int) -> str:
    """k of n cells passed, in the words of the terminal's and the report's "cells passed"."""
    ci = stats.wilson(k, n)
    return f"{k}/{n} ({100 * k / n:.0f}%, Wilson {100 * ci.low:.0f}-{100 * ci.high:.0f}%)"


def pass_line(row: ArmVerdict, counts: Mapping[tuple[str, str], tuple[int, int, int, int]]) -> str:
    sides = [counts.get((row["model"], arm)) for arm in (row["arm"], row["baseline"])]
    if all(side is None for side in sides):
        # No cell of either arm is of a scored task: graders alone grade them (score, not pass).
        return "cells passed: no cell has a pass (its tasks are graded by graders alone)"
    parts = []
    for arm in (row["arm"], row["baseline"]):
        k, n, bad, unscored = counts.get((row["model"], arm), (0, 0, 0, 0))
        if n:
            parts.append(f"{arm} {pass_rate_text(k, n)}")
        elif unscored:
            parts.append(f"{arm} no scored cell ({unscored} unscored, {bad} invalid)")
        else:
            parts.append(f"{arm} no valid cell ({bad} invalid)")
    return "cells passed: " + ", ".join(parts)


TWIN_NOTE = "an A/A twin (the baseline's content): its verdict is the run's measured noise floor"


def paired_tasks(row: ArmVerdict) -> int:
    return max((e.n_tasks for e in row["effects"]), default=0)


def task_rate_line(row: ArmVerdict) -> str | None:
    """The primary rate of each side over tasks like these, beside the cells passed (whose
    Wilson interval holds for these tasks' cells alone)."""
    found = row.get("task_rates")
    if not found:
        return None
    metric, rates = found
    parts = [
        f"{arm} {100 * r:.0f}% ({100 * lo:.0f}-{100 * hi:.0f}%)"
        for arm in (row["arm"], row["baseline"])
        if (rate := rates.get(arm)) is not None
        for r, lo, hi in [rate]
    ]
    said = "; cells passed above is over these tasks alone" if metric == "pass" else ""
    return f"{METRIC_NAMES.get(metric, metric)} over tasks like these (95%{said}): " + ", ".join(parts)


def sequential_line(row: ArmVerdict) -> str | None:
    """After a sequential stop: the primary's interval is the repeated one, its estimate biased."""
    e = next((e for e in row["effects"] if e.primary and e.repeated is not None), None)
    if e is None or e.repeated is None:
        return None
    name = METRIC_NAMES.get(e.metric, e.metric)
    return (
        f"sequential stop: {name}'s interval is the repeated confidence interval (it holds at every "
        f"look at once: 95% over the looks, p < {fmt_level(e.repeated)} at this one); its estimate is "
        f"biased away from no change by stopping when decided"
    )


def procedure_line(row: ArmVerdict) -> str:
    """Which metric is primary and at what level, what the rest share, and how levels move:
    "procedure: pass first at p < 0.045; loc, cost, tokens, time share p < 0.005 (weighted
    Holm: a decided metric hands its level on)"."""
    tested = [e for e in row["effects"] if e.tested and e.n_tasks > 0]
    primary = METRIC_NAMES.get(row["primary"], row["primary"])
    first = next((e for e in tested if e.primary), None)
    rest = [e for e in tested if not e.primary]
    hand_on = "weighted Holm: a decided metric hands its level on"
    if first is None and not rest:
        return f"procedure: {primary} first; no metric has a paired task to test"
    if first is None:
        return (
            f"procedure: {primary} first, but it has no paired task; "
            f"{metric_list(rest)} share p < {fmt_level(sum(e.level for e in rest))} ({hand_on})"
        )
    head = f"procedure: {primary} first at p < {fmt_level(first.level)}"
    if first.direction != stats.TWO_SIDED:
        better = procedure.BETTER_SHARE * first.level
        head = (
            f"procedure: {primary} first, in the declared direction: better at p < {fmt_level(better)} "
            f"one-sided, worse at p < {fmt_level(first.level - better)}"
        )
    if not rest:
        return head
    return f"{head}; {metric_list(rest)} share p < {fmt_level(sum(e.level for e in rest))} ({hand_on})"


def family_line(row: ArmVerdict) -> str:
    return row["family"].describe()


def _effect_text(e: Effect) -> str:
    return f"{fmt_estimate(e)} {fmt_interval(e)}" if e.n_tasks else "no paired task"


def bound_line(row: ArmVerdict, b: Bound) -> str:
    """One line: both sides' invalid shares, the metric with the invalid cells filled in both
    extreme ways, and the rule."""
    name = METRIC_NAMES.get(b.metric, b.metric)
    arm, base = row["arm"], row["baseline"]
    if b.arm_unscored or b.base_unscored:
        share = (
            f"{arm} {_left_out(b.arm_invalid, b.arm_unscored, b.arm_cells)}, "
            f"{base} {_left_out(b.base_invalid, b.base_unscored, b.base_cells)}"
        )
    else:
        arm_share, base_share = _share(b.arm_invalid, b.arm_cells), _share(b.base_invalid, b.base_cells)
        share = f"{arm} {arm_share} invalid, {base} {base_share}"
    cells = "invalid cells" if not (b.arm_unscored or b.base_unscored) else "invalid and unscored cells"
    return (
        f"missing cells bounded: {share}; {name} with {arm}'s {cells} failed and {base}'s "
        f"passed {_effect_text(b.worst)}, the reverse {_effect_text(b.best)}; better or worse only "
        f"where that bound agrees (the interval shown spans all three)"
    )


def _share(k: int, n: int) -> str:
    return f"{100 * k / n:.0f}% ({k} of {n})" if n else "no cell"


def _left_out(invalid: int, unscored: int, cells: int) -> str:
    said = _share(invalid, cells) + " invalid"
    return said + (f", {unscored} unscored" if unscored else "")


def _p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


RERUN_HINT = "pytest <your benchmarks folder> --resume <this run dir>"


def rerun_lines(row: ArmVerdict, rerun: str | None = None) -> list[str]:
    """Where the bound on the left-out cells, not the data, left a metric undecided: the figure
    on valid cells alone and the command that reruns the invalid cells (a resume runs every
    cell without a valid attempt)."""
    lines = []
    for b in row["bounds"]:
        e = next((e for e in row["effects"] if e.metric == b.metric and e.vetoed), None)
        if e is None:
            continue
        name = METRIC_NAMES.get(b.metric, b.metric)
        v = b.valid
        word = stats.BETTER if (v.estimate > 0) != v.lower_is_better else stats.WORSE
        unscored = b.arm_unscored + b.base_unscored
        what = "the invalid cells" + (" (and score the unscored ones)" if unscored else "")
        lines.append(
            f"{name} undecided by the bound, not the data: on valid cells alone {name} {fmt_estimate(v)} "
            f"{fmt_interval(v)}, p {_p(v.p)}, {word} at its level p < {fmt_level(e.level)}; "
            f"rerun {what}: {rerun or RERUN_HINT}"
        )
    return lines


def reliability_lines(row: ArmVerdict) -> list[str]:
    """pass^k and pass@k of the arm and the baseline, with Wilson intervals over tasks, a line
    each; none below 2 runs per task (then both are the pass rate)."""
    return [
        "reliability of " + reliability.describe(a, row["reliability"][a])
        for a in (row["arm"], row["baseline"])
        if a in row["reliability"]
    ]


def floor_line(row: ArmVerdict) -> str | None:
    """The smallest pass and cost change this comparison could decide with 80% power."""
    effects = {e.metric: e for e in row["effects"]}
    parts = []
    for metric in ("pass", "cost_usd"):
        e = effects.get(metric)
        if e is None or not e.tested:
            continue
        floor = noise.effect_floor(e)
        # 0: no spread at all, so any change that moved every task would do; not a floor to show.
        if floor is not None and floor > 0:
            parts.append(noise.floor_text(METRIC_NAMES[metric], e.kind, floor))
    if not parts:
        return None
    return "noise floor (the smallest change decidable here with 80% power at these levels): " + ", ".join(
        parts
    )


def header_lines(row: ArmVerdict) -> list[str]:
    """What a block says before its table: the procedure and the family (and a twin's role, why
    the primary is score, what a sequential stop's interval is)."""
    lines = [procedure_line(row), family_line(row)]
    if row.get("primary_why"):
        lines.insert(0, str(row["primary_why"]))
    if row["twin"]:
        lines.insert(0, TWIN_NOTE)
    stop = sequential_line(row)
    if stop is not None:
        lines.append(stop)
    return lines


def footer_lines(row: ArmVerdict, rerun: str | None = None) -> list[str]:
    """What a block says after its sentences: the rate over tasks like these, the missing
    cells' bound (and what would settle a verdict it held back: `rerun`, the command that reruns
    the invalid cells), reliability, floor."""
    lines = []
    rate = task_rate_line(row)
    if rate is not None:
        lines.append(rate)
    lines += [bound_line(row, b) for b in row["bounds"]]
    lines += rerun_lines(row, rerun)
    if row["twin"] and any(is_decided(e) for e in row["effects"]):
        lines.append(
            f"warning: the A/A twin {row['arm']} decided something although nothing differs: a chance "
            f"of at most 5% per run, or the run is not stable (the model or the service changed "
            f"between cells)"
        )
    lines += reliability_lines(row)
    floor = floor_line(row)
    if floor is not None:
        lines.append(floor)
    return lines
