"""Aggregation of cell records into summary rows, and the summary table.

Pure functions: records in, rows and text out. Invalid cells (infrastructure failures) are
counted but kept out of every quality figure; any other record that lacks a score (a cell that
crashed) counts as failed, so a crash can never make an arm look better.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .records import flag, is_scored, is_valid, latest, number, passed, reached_outside, tokens
from .skills import exercised

Record = Mapping[str, Any]


def _numbers(cells: Sequence[Record], key: str) -> list[float]:
    """The finite values of one field; missing, NaN and infinite ones are left out."""
    return [v for c in cells if (v := number(c.get(key))) is not None]


def _mean(xs: Sequence[float]) -> float | None:
    """The mean, or None; values near the float range (1e308) overflow fmean's exact sum, and a
    mean that is not finite is not a figure."""
    if not xs:
        return None
    try:
        mean = statistics.fmean(xs)
    except OverflowError:
        mean = sum(x / len(xs) for x in xs)
    return mean if math.isfinite(mean) else None


def _per(total: float, n: int) -> float | None:
    return total / n if n and math.isfinite(total) else None


def _median(xs: Sequence[float]) -> float | None:
    return statistics.median(xs) if xs else None


def _rate(k: int, n: int) -> float | None:
    return k / n if n else None


def summarize(cells: Sequence[Record]) -> dict[str, Any]:
    """The figures of one group of cells (one task x arm x model, or a whole model)."""
    valid = [c for c in cells if is_valid(c)]
    n = len(valid)
    wrote = [c for c in valid if (number(c.get("total_loc")) or 0) > 0]
    costs = _numbers(valid, "cost_usd")
    toks = [t for c in valid if (t := tokens(c)) is not None]
    # Pass, correct and safe only where there was something to check (not an open task's cells).
    scored = [c for c in valid if is_scored(c)]
    k = len(scored)
    passes = sum(passed(c) for c in scored)
    return {
        "n": len(cells),
        "valid": n,
        "scored": k,  # valid cells with something to check: the base of correct, safe, passed
        "invalid": len(cells) - n,
        "timed_out": sum(bool(c.get("timed_out")) for c in cells),
        "wrote": _rate(len(wrote), n),
        "correct": _rate(sum(flag(c.get("correct")) is True for c in scored), k),
        "safe": _rate(sum(flag(c.get("safe")) is True for c in scored), k),
        "passed": _rate(passes, k),
        # LOC only where code was delivered: an arm that writes nothing is not "smaller".
        "loc_median": _median(_numbers(wrote, "total_loc")),
        "tests_written": _rate(sum((number(c.get("test_loc")) or 0) > 0 for c in valid), n),
        "tokens_mean": _mean(toks),
        "cost_per_run": _mean(costs),
        "cost_per_pass": _per(sum(_numbers(scored, "cost_usd")), passes) if costs else None,
        "reply_words_median": _median(_numbers(valid, "reply_words")),
        "time_s_mean": _mean([ms / 1000 for ms in _numbers(valid, "duration_ms")]),
        "turns_mean": _mean(_numbers(valid, "turns")),
        # The share of cells whose agent read or wrote outside its workspace (the audit).
        "outside": _rate(sum(reached_outside(c) for c in valid), n),
        # Of the cells whose arm's plugin registered a skill, agent or command: the share that
        # invoked one (None where nothing was registered, e.g. the baseline).
        "skill_used": _rate(
            sum(e is True for e in (exercised(c) for c in valid)),
            sum(exercised(c) is not None for c in valid),
        ),
    }


def aggregate(records: Iterable[Record]) -> list[dict[str, Any]]:
    """Rows per (task, model, arm), sorted, from the latest attempt of every cell."""
    groups: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for rec in latest(records):
        groups[(str(rec.get("task")), str(rec.get("model")), str(rec.get("arm")))].append(rec)
    return [
        {"task": t, "model": m, "arm": a, **summarize(cells)} for (t, m, a), cells in sorted(groups.items())
    ]


def model_totals(records: Iterable[Record]) -> list[dict[str, Any]]:
    """Rows per (model, arm) over all tasks."""
    groups: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for rec in latest(records):
        groups[(str(rec.get("model")), str(rec.get("arm")))].append(rec)
    return [
        {"task": "ALL", "model": m, "arm": a, **summarize(cells)} for (m, a), cells in sorted(groups.items())
    ]


def arm_order(arms: Iterable[str]) -> list[str]:
    """Baseline first, the rest in name order."""
    names = sorted(set(arms))
    return sorted(names, key=lambda a: (a != "baseline", a))


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _num(x: float | None, fmt: str = "{:.0f}") -> str:
    return "-" if x is None else fmt.format(x)


COLUMNS = (
    "arm",
    "n",
    "valid",
    "wrote",
    "correct",
    "safe",
    "LOC",
    "tests",
    "tokens",
    "$/run",
    "$/pass",
    "words",
    "time_s",
)
# Shown only where an arm's plugin registered something: the share of its cells that used it.
SKILL_COLUMN = "skill"
# Shown only where some agent read or wrote outside its workspace: the share of cells that did.
OUTSIDE_COLUMN = "outside"


def _cells(row: Mapping[str, Any]) -> list[str]:
    return [
        str(row["arm"]),
        str(row["n"]),
        str(row["valid"]),
        _pct(row["wrote"]),
        _pct(row["correct"]),
        _pct(row["safe"]),
        _num(row["loc_median"], "{:g}"),
        _pct(row["tests_written"]),
        _num(row["tokens_mean"]),
        _num(row["cost_per_run"], "${:.4f}"),
        _num(row["cost_per_pass"], "${:.4f}"),
        _num(row["reply_words_median"], "{:g}"),
        _num(row["time_s_mean"], "{:.1f}"),
    ]


def _block(title: str, rows: Sequence[Mapping[str, Any]]) -> list[str]:
    order = {a: i for i, a in enumerate(arm_order(r["arm"] for r in rows))}
    ordered = sorted(rows, key=lambda r: order[r["arm"]])
    body = [_cells(r) for r in ordered]
    columns: tuple[str, ...] = COLUMNS
    if any(r.get("skill_used") is not None for r in rows):
        columns = (*columns, SKILL_COLUMN)
        body = [b + [_pct(r.get("skill_used"))] for b, r in zip(body, ordered, strict=True)]
    if any(r.get("outside") for r in rows):
        columns = (*columns, OUTSIDE_COLUMN)
        body = [b + [_pct(r.get("outside"))] for b, r in zip(body, ordered, strict=True)]
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(columns)]
    fmt = "  " + "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    return [title, fmt.format(*columns), *(fmt.format(*b) for b in body)]


def render_table(records: Sequence[Record]) -> str:
    """The text summary: a block per (task, model), then one per model over all tasks."""
    rows = aggregate(records)
    lines: list[str] = []
    by_task: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_task[(r["task"], r["model"])].append(r)
    for (task, model), group in sorted(by_task.items()):
        lines += _block(f"{task} ({model})", group) + [""]
    by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in model_totals(records):
        by_model[r["model"]].append(r)
    for model, group in sorted(by_model.items()):
        lines += _block(f"ALL TASKS ({model})", group) + [""]
    return "\n".join(lines).rstrip()
