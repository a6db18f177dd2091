"""What a verdict block says besides its table: the procedure and the family it is decided in,
the cells passed, the missing cells' bound, reliability (pass^k, pass@k) and the noise floor.

Each is one line (or a few) of plain words, the same in the text, the Markdown and the HTML
report, which all put them around their own table (`render.py`, htmlreport/).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from pytest_ponybench.analysis import noise, reliability, stats
from pytest_ponybench.analysis.stats import ArmVerdict, Bound, Effect
from pytest_ponybench.analysis.verdict.words import (
    METRIC_NAMES,
    fmt_estimate,
    fmt_interval,
    fmt_level,
    is_decided,
    metric_list,
)
from pytest_ponybench.core.records import Record, is_scored, is_valid, latest, passed

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
    "procedure_line",
    "reliability_lines",
]


def pass_counts(records: Sequence[Record]) -> dict[tuple[str, str], tuple[int, int, int]]:
    """(model, arm) -> (passed cells, valid cells, invalid cells) over the latest attempt of
    every cell."""
    counts: dict[tuple[str, str], tuple[int, int, int]] = {}
    for rec in latest(records):
        if not is_scored(rec):
            continue  # an open task has nothing to pass
        key = (str(rec.get("model")), str(rec.get("arm")))
        k, n, bad = counts.get(key, (0, 0, 0))
        if is_valid(rec):
            counts[key] = (k + int(passed(rec)), n + 1, bad)
        else:
            counts[key] = (k, n, bad + 1)
    return counts


def _rate_text(k: int, n: int) -> str:
    ci = stats.wilson(k, n)
    return f"{k}/{n} ({100 * k / n:.0f}%, Wilson {100 * ci.low:.0f}-{100 * ci.high:.0f}%)"


def pass_line(row: ArmVerdict, counts: Mapping[tuple[str, str], tuple[int, int, int]]) -> str:
    parts = []
    for arm in (row["arm"], row["baseline"]):
        k, n, bad = counts.get((row["model"], arm), (0, 0, 0))
        parts.append(f"{arm} {_rate_text(k, n)}" if n else f"{arm} no valid cell ({bad} invalid)")
    return "cells passed: " + ", ".join(parts)


TWIN_NOTE = "an A/A twin (the baseline's content): its verdict is the run's measured noise floor"


def paired_tasks(row: ArmVerdict) -> int:
    return max((e.n_tasks for e in row["effects"]), default=0)


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
    share = (
        f"{arm} {_share(b.arm_invalid, b.arm_cells)} invalid, {base} {_share(b.base_invalid, b.base_cells)}"
    )
    return (
        f"missing cells bounded: {share}; {name} with {arm}'s invalid cells failed and {base}'s "
        f"passed {_effect_text(b.worst)}, the reverse {_effect_text(b.best)}; better or worse only "
        f"where that bound agrees (the interval shown spans all three)"
    )


def _share(k: int, n: int) -> str:
    return f"{100 * k / n:.0f}% ({k} of {n})" if n else "no cell"


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
    for metric, unit in (("pass", " pp"), ("cost_usd", "%")):
        e = effects.get(metric)
        if e is None or not e.tested:
            continue
        floor = noise.effect_floor(e)
        # 0: no spread at all, so any change that moved every task would do; not a floor to show.
        if floor is not None and 0 < floor < math.inf:
            parts.append(f"{METRIC_NAMES[metric]} ±{floor:.0f}{unit}")
    if not parts:
        return None
    return "noise floor (the smallest change decidable here with 80% power at these levels): " + ", ".join(
        parts
    )


def header_lines(row: ArmVerdict) -> list[str]:
    """What a block says before its table: the procedure and the family (and a twin's role)."""
    lines = [procedure_line(row), family_line(row)]
    if row["twin"]:
        lines.insert(0, TWIN_NOTE)
    return lines


def footer_lines(row: ArmVerdict) -> list[str]:
    """What a block says after its sentences: the missing cells' bound, reliability, floor."""
    lines = [bound_line(row, b) for b in row["bounds"]]
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
