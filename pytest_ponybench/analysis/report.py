"""Aggregation of cell records into summary rows, and the summary table.

Pure functions: records in, rows and text out. Invalid cells (infrastructure failures) are
counted but kept out of every quality figure; so are unscored ones (a valid session whose
correct/safe the scorer never gave): counted, never a failure, so a crash can make an arm look
neither better nor worse. An axis recorded false fails the cell whatever the other says.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_ponybench.analysis import triggers
from pytest_ponybench.analysis.stats.metrics import pass_value
from pytest_ponybench.core.graders.cell import self_agreement
from pytest_ponybench.core.records import (
    Record,
    flag,
    is_scored,
    is_valid,
    latest,
    number,
    passed,
    reached_outside,
    tokens,
)
from pytest_ponybench.core.skills import exercised

__all__ = [
    "COLUMNS",
    "MATRIX_ROWS_IN_TERMINAL",
    "OUTSIDE_COLUMN",
    "SCORE_COLUMN",
    "SKILL_COLUMN",
    "aggregate",
    "arm_order",
    "failed_lines",
    "grading_lines",
    "model_totals",
    "moved_most",
    "render_matrix",
    "render_table",
    "summarize",
    "table_rows",
    "terminal_matrix",
]


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
    # Pass, correct and safe only where there was something to check (not an open task's cells)
    # and the scorer said something (not an unscored cell).
    checked = [c for c in valid if is_scored(c)]
    scored = [c for c in checked if pass_value(c) is not None]
    k = len(scored)
    passes = sum(passed(c) for c in scored)
    return {
        "n": len(cells),
        "valid": n,
        "scored": k,  # valid cells with something to check, scored: the base of correct, safe, passed
        "unscored": len(checked) - k,
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
        # The graders' weighted share passed (cells of tasks that declare graders only).
        "score_mean": _mean(_numbers(valid, "score")),
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
# Shown only where some cell has graders: the mean of their weighted share passed.
SCORE_COLUMN = "score"


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


def table_rows(rows: Sequence[Mapping[str, Any]]) -> tuple[tuple[str, ...], list[list[str]]]:
    """The columns and cells of summary rows, baseline first; the skill, score and outside
    columns only where some row has them (the terminal and the HTML report show the same)."""
    order = {a: i for i, a in enumerate(arm_order(r["arm"] for r in rows))}
    ordered = sorted(rows, key=lambda r: order[r["arm"]])
    body = [_cells(r) for r in ordered]
    columns: tuple[str, ...] = COLUMNS
    # outside: only where an agent reached outside (0% everywhere would only be noise).
    optional = ((SKILL_COLUMN, "skill_used"), (SCORE_COLUMN, "score_mean"), (OUTSIDE_COLUMN, "outside"))
    for name, key in optional:
        if any(r.get(key) if key == "outside" else r.get(key) is not None for r in rows):
            columns = (*columns, name)
            body = [b + [_pct(r.get(key))] for b, r in zip(body, ordered, strict=True)]
    return columns, body


def _block(title: str, rows: Sequence[Mapping[str, Any]]) -> list[str]:
    columns, body = table_rows(rows)
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(columns)]
    fmt = "  " + "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    return [title, fmt.format(*columns), *(fmt.format(*b) for b in body)]


def render_table(records: Sequence[Record], per_task: bool = True) -> str:
    """The text summary: a block per (task, model) (with per_task), then one per model over all
    tasks."""
    lines: list[str] = []
    if per_task:
        by_task: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        for r in aggregate(records):
            by_task[(r["task"], r["model"])].append(r)
        for (task, model), group in sorted(by_task.items()):
            lines += _block(f"{task} ({model})", group) + [""]
    by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in model_totals(records):
        by_model[r["model"]].append(r)
    for model, group in sorted(by_model.items()):
        lines += _block(f"ALL TASKS ({model})", group) + [""]
    return "\n".join(lines).rstrip()


def _mark(cells: Sequence[Record]) -> str:
    """passed/scored of one (task, arm, model), with what failed: U unsafe, C incorrect,
    ! invalid (repeated per cell), - for an open task's cells (nothing scored)."""
    valid = [c for c in cells if is_valid(c)]
    scored = [c for c in valid if is_scored(c)]
    text = f"{sum(passed(c) for c in scored)}/{len(scored)}" if scored else "-"
    unsafe = sum(flag(c.get("safe")) is not True for c in scored)
    wrong = sum(flag(c.get("correct")) is not True for c in scored)
    flags = "U" * unsafe + "C" * wrong + "!" * (len(cells) - len(valid))
    return f"{text} {flags}".rstrip()


def grading_lines(records: Sequence[Record]) -> list[str]:
    """What the graders say beyond the table: each arm's trigger accuracy (tasks that declare
    expect_fire) and each judge grader's agreement with itself (--judge-runs K > 1)."""
    lines = [triggers.describe(t) for t in triggers.per_arm(records)]
    for a in self_agreement(latest(records)):
        lines.append(
            f"judge self-agreement of {a.grader}: {100 * a.mean:.0f}% of its answers agreed with the "
            f"majority over {a.cells} cell(s), unanimous in {a.unanimous}"
        )
    return lines


def render_matrix(records: Sequence[Record]) -> str:
    """Tasks as rows, arm x model as columns, passed/scored in each: the whole grid at a glance."""
    groups: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for rec in latest(records):
        groups[(str(rec.get("task")), str(rec.get("arm")), str(rec.get("model")))].append(rec)
    if not groups:
        return ""
    arms = arm_order({a for _, a, _ in groups})
    models = sorted({m for _, _, m in groups})
    columns = [(a, m) for m in models for a in arms if any(k[1:] == (a, m) for k in groups)]
    tasks = sorted({t for t, _, _ in groups})
    heads = [f"{a} {m}" if len(models) > 1 else a for a, m in columns]
    body = [[t, *(_mark(groups.get((t, a, m), [])) for a, m in columns)] for t in tasks]
    widths = [max(len(h), *(len(row[i]) for row in body)) for i, h in enumerate(["task", *heads])]
    fmt = "  " + "  ".join(f"{{:<{w}}}" for w in widths)
    title = "passed/scored per task (U unsafe, C incorrect, ! invalid, - nothing to score)"
    return "\n".join([title, fmt.format("task", *heads), *(fmt.format(*row).rstrip() for row in body)])


# The terminal's matrix has a row per task: above this many it would push the verdicts off a
# screen, so the terminal names it in one line (-v prints it, and the HTML report has it).
MATRIX_ROWS_IN_TERMINAL = 40


def terminal_matrix(records: Sequence[Record], full: bool = False) -> str:
    """render_matrix for the terminal: the whole grid when it fits a screen (or full, for -v),
    else one line saying where it is."""
    n_tasks = len({str(r.get("task")) for r in records})
    if full or n_tasks <= MATRIX_ROWS_IN_TERMINAL:
        return render_matrix(records)
    return (
        f"passed/scored per task: {n_tasks} rows, more than fit a screen "
        "(-v prints them here; the HTML report has them)"
    )


def moved_most(records: Sequence[Record], baseline: str = "baseline", top: int = 5) -> list[str]:
    """The tasks whose pass rate moved most between each arm and the baseline, per model."""
    rows = aggregate(records)
    by_key = {(r["task"], r["model"], r["arm"]): r for r in rows}
    lines: list[str] = []
    for model in sorted({r["model"] for r in rows}):
        for arm in arm_order({r["arm"] for r in rows if r["model"] == model}):
            if arm == baseline:
                continue
            moves = []
            for (task, m, a), row in by_key.items():
                base = by_key.get((task, m, baseline))
                if m != model or a != arm or base is None or row["passed"] is None or base["passed"] is None:
                    continue
                moves.append((row["passed"] - base["passed"], task, row, base))
            moves = [mv for mv in moves if mv[0] != 0]
            moves.sort(key=lambda mv: (-abs(mv[0]), mv[1]))
            for delta, task, row, base in moves[:top]:
                lines.append(
                    f"  {task} ({model}): {arm} {_pct(row['passed'])} vs {baseline} {_pct(base['passed'])} "
                    f"({100 * delta:+.0f} pp)"
                )
    return lines


def _clip(text: str, width: int) -> str:
    """text within width, cut at a word boundary with an ellipsis (mid-word only where one word
    is longer than the width)."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[: max(1, width - 1)]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"


def failed_lines(
    records: Sequence[Record], width: int = 120, expected: Mapping[str, str] | None = None
) -> list[str]:
    """One line per cell that did not pass: `task arm model run: unsafe: <check>: <message>`.

    Cells in expected (cell id -> why) failed as intended (a flawed offline agent): they are
    counted in one line, not listed.
    """
    expected = expected or {}
    lines: list[str] = []
    intended = 0
    for rec in latest(records):
        if not is_valid(rec):
            what = f"invalid: {rec.get('error') or 'no reason recorded'}"
        elif not is_scored(rec) or passed(rec):
            continue
        elif str(rec.get("cell_id")) in expected:
            intended += 1
            continue
        else:
            axis = "unsafe" if flag(rec.get("safe")) is not True else "incorrect"
            reason = str(rec.get("reason") or "no reason recorded")
            what = reason if reason.startswith("nothing written") else f"{axis}: {reason}"
        head = f"{rec.get('task')} {rec.get('arm')} {rec.get('model')} r{rec.get('run')}: "
        lines.append("  " + head + _clip(what, max(20, width - len(head) - 2)))
    if intended:
        lines.insert(0, f"  {intended} cell(s) failed as their offline agent intends (not listed)")
    return lines
