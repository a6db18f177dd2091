"""Read many runs of one benchmark: a FOLDER of run dirs (default runs/, through its history.jsonl
index, which gains a line for any run dir it lacks) or run dirs named one by one. Prints the
comparable series (same tasks and task hashes, agent, CLI version, judge model and resource
envelope; an arm's own hash may change) and why each broke, each arm's pass rate per run with its
95% interval and a sparkline, the tasks that regressed or were fixed since the run before, flaky
tasks, the slowest and costliest tasks, and the newest run against the last comparable run (or the
pooled last --window runs)."""

# (This docstring is `history --help`'s description.) Run dirs named one by one are read directly
# and no index is written; the gate of --fail-on is compare's.

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_ponybench._cli.common import (
    GATE_FAILED,
    OK,
    Subparsers,
    command,
    emit,
    label,
    load_records,
    markdown_option,
    note,
)
from pytest_ponybench._cli.compare import apply_gate, gate_rules
from pytest_ponybench.analysis import stats, trend, verdict
from pytest_ponybench.core.records import Record
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.store import history
from pytest_ponybench.store.runinfo import RunInfoError

__all__ = ["Found", "add", "find", "run", "since_last", "to_json"]

DEFAULT_FOLDER = "runs"
TOP = 3  # slowest and costliest tasks shown per series


def add(sub: Subparsers) -> None:
    h = command(
        sub,
        "history",
        run,
        __doc__,
        help="a benchmark over many runs: series, trend, regressions, flaky tasks, a gate",
        epilog="Exit codes as for compare: 1 when a --fail-on rule fails or there is no comparable run "
        "to test against, 2 a usage or data error.",
    )
    h.add_argument(
        "paths",
        nargs="*",
        metavar="RUN_DIR|FOLDER",
        help=f"run dirs, or one folder of them (default {DEFAULT_FOLDER}/)",
    )
    h.add_argument(
        "--rebuild", action="store_true", help="write FOLDER's history.jsonl anew from its run dirs"
    )
    h.add_argument(
        "--fail-on",
        metavar="RULES",
        help="exit 1 when the newest run is worse than the last comparable run (or the window) beyond a "
        "margin with confidence; the rules of compare --fail-on",
    )
    h.add_argument(
        "--window",
        type=int,
        default=1,
        metavar="K",
        help="compare the newest run with the last K comparable runs pooled (default 1: the last one)",
    )
    out = h.add_mutually_exclusive_group()
    markdown_option(out, "Markdown, for a pull-request comment")
    out.add_argument("--json", action="store_true", help="everything as one JSON document (docs/history.md)")
    h.add_argument("--csv", metavar="PATH", help="also write one row per run, task, arm and model to PATH")
    h.add_argument(
        "--svg", metavar="PATH", help="also write each series' pass rate as an SVG sparkline to PATH"
    )


# -- what was found ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """The runs read (oldest first), where each run dir lies, the series, and what could not be read."""

    where: str
    entries: tuple[history.Entry, ...]
    paths: dict[str, Path]
    series: list[trend.Series]
    problems: tuple[str, ...]


def find(paths: Sequence[str], rebuild: bool = False) -> Found:
    """The runs of a folder (through its index) or of run dirs named one by one."""
    if not paths:
        paths = [DEFAULT_FOLDER]
    first = Path(paths[0])
    if len(paths) == 1 and first.is_dir() and not history.is_run_dir(first):
        if rebuild:
            index, problems = history.rebuild(first)
        else:
            index, problems = history.update(first)
        entries = index.entries
        where_of = {e.run: first / e.run for e in entries}
        where = label(paths[0])
        if not entries and not problems:
            raise PonybenchError(
                f"{first}: no finished run dir in it (a folder with run.json and results.jsonl)"
            )
    else:
        if rebuild:
            raise PonybenchError("--rebuild writes a FOLDER's index; give the folder, not run dirs")
        made, where_of, problems = [], {}, []
        for text in paths:
            path = Path(text)
            if not history.is_run_dir(path):
                raise PonybenchError(f"{text}: not a run dir (a folder with run.json and results.jsonl)")
            try:
                entry = history.entry_of(path)
            except (OSError, RunInfoError) as exc:
                raise PonybenchError(f"{text}: {exc}") from exc
            name = label(text)
            if name in where_of:
                raise PonybenchError(f"run dir given twice: {text}")
            entry = _renamed(entry, name)
            made.append(entry)
            where_of[name] = path
        entries = tuple(sorted(made, key=lambda e: (e.point.stamp, e.run)))
        where = f"{len(paths)} run dirs"
    return Found(where, tuple(entries), where_of, trend.series([e.point for e in entries]), tuple(problems))


def _renamed(entry: history.Entry, name: str) -> history.Entry:
    from dataclasses import replace

    return replace(entry, run=name, point=replace(entry.point, run=name))


# -- the last run against the one before -------------------------------------------------------


@dataclass(frozen=True)
class SinceLast:
    """The newest run against its base (the last comparable run, or the pooled window): the
    verdict rows and records (empty when there is no base) and what was left out."""

    run: str
    base: tuple[str, ...]
    notes: tuple[str, ...]
    rows: list[stats.ArmVerdict]
    records: list[Record]


def since_last(found: Found, window: int = 1) -> SinceLast | None:
    """None when there is no run at all."""
    if not found.entries:
        return None
    last = found.entries[-1].run
    try:
        base = trend.base_runs([e.point for e in found.entries], last, window)
    except ValueError as exc:
        raise PonybenchError(f"--window: {exc}") from exc
    if not base.runs:
        return SinceLast(last, (), base.notes, [], [])
    cand = load_records(str(found.paths[last]))
    pooled = trend.pool([load_records(str(found.paths[r])) for r in base.runs])
    base_label = base.runs[0] if len(base.runs) == 1 else f"last {len(base.runs)} runs"
    try:
        rows, records = verdict.compare_verdicts(pooled, cand, base_label=base_label, cand_label=last)
    except ValueError as exc:
        return SinceLast(last, base.runs, (*base.notes, str(exc)), [], [])
    return SinceLast(last, base.runs, base.notes, rows, records)


def _primary(row: stats.ArmVerdict) -> stats.Effect | None:
    return next((e for e in row["effects"] if e.primary), row["effects"][0] if row["effects"] else None)


# -- printing ----------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _rate_line(r: trend.RunRate) -> str:
    invalid = f", {r.invalid} invalid" if r.invalid else ""
    score = "-" if r.score is None else f"{r.score:.2f}"
    return f"{r.passed}/{r.scored} {_pct(r.rate):>4}  [{_pct(r.low)}, {_pct(r.high)}]  score {score}{invalid}"


def _move_line(m: trend.Move) -> str:
    paired = ""
    if m.p is not None:
        paired = f"; paired by run: {m.lost} lost, {m.gained} gained, sign test p {m.p:.2f}"
    return (
        f"{m.kind} {m.task}: {m.before[0]}/{m.before[1]} → {m.after[0]}/{m.after[1]} "
        f"({m.change:+.0f} pp, {m.run_before} → {m.run_after}{paired})"
    )


def _flaky_line(f: trend.Flaky) -> str:
    return (
        f"{f.task}: passed {f.passed} of {f.scored} valid cells over {f.runs} run(s) "
        f"at arm hash {(f.arm_hash or 'none')[:12]} (flaky {_pct(f.rate)})"
    )


def _values(t: trend.Trend, unit: str) -> str:
    def one(v: float | None) -> str:
        if v is None:
            return "-"
        return f"${v:.4f}" if unit == "$" else f"{v:.1f} s"

    return " → ".join(one(v) for v in t.values)


SHOWN = 10  # lines of moves or flaky tasks per series before "and N more"


def _by_size(found: Sequence[trend.Move]) -> list[trend.Move]:
    """Moves of each step together, the largest change first."""
    order = list(dict.fromkeys(m.run_after for m in found))
    return sorted(found, key=lambda m: (order.index(m.run_after), -abs(m.change), m.task))


def _capped(lines: list[str], what: str) -> list[str]:
    if len(lines) <= SHOWN:
        return lines
    return [*lines[:SHOWN], f"   ... and {len(lines) - SHOWN} more {what} (--json lists every one)"]


def _since_lines(since: SinceLast | None, md: bool) -> list[str]:
    if since is None:
        return []
    out = []
    if not since.base:
        out.append(f"{since.run}: no earlier comparable run to compare it with")
    else:
        base = ", ".join(since.base)
        out.append(f"{since.run} against {base}:")
        for row in since.rows:
            e = _primary(row)
            if e is None:
                continue
            name = verdict.METRIC_NAMES.get(e.metric, e.metric)
            shown = f"{name} {verdict.fmt_estimate(e)} {verdict.fmt_interval(e)}, {e.n_tasks} paired tasks"
            text = f"{row['model']}: {verdict.word(e)} ({shown}, p {verdict.fmt_p(e)})"
            out.append(f"- {text}" if md else f"  {text}")
    out += [f"- note: {n}" if md else f"  note: {n}" for n in since.notes]
    return out


def render_text(found: Found, since: SinceLast | None) -> str:
    lines = [f"history of {found.where}: {len(found.entries)} run(s)"]
    if found.entries:
        lines[0] += f", {found.entries[0].started or '?'} to {found.entries[-1].started or '?'}"
    for s in found.series:
        rates = [trend.rate(p, s.arm, s.model) for p in s.points]
        lines += ["", f"== {s.name}: {len(s.points)} run(s)  {trend.sparkline([r.rate for r in rates])}"]
        if s.why:
            lines.append(f"   a new series: {'; '.join(s.why)}")
        for r in rates:
            lines.append(f"   {r.run:<28} {_rate_line(r)}")
        versions = dict(s.versions)
        for point in s.points:
            if point.run in versions:
                lines.append(f"   at {point.run}: {versions[point.run]}")
        lines += _capped([f"   {_move_line(m)}" for m in _by_size(trend.moves(s))], "moved")
        lines += _capped([f"   flaky: {_flaky_line(f)}" for f in trend.flaky(s)], "flaky")
        if len(s.points) > 1:
            lines += [f"   slowest: {t.task}: {_values(t, 's')}" for t in trend.trends(s, "wall_s", TOP)]
            lines += [f"   costliest: {t.task}: {_values(t, '$')}" for t in trend.trends(s, "cost_usd", TOP)]
    since_lines = _since_lines(since, md=False)
    if since_lines:
        lines += ["", "since the last comparable run:", *since_lines]
    return "\n".join(lines)


def render_markdown(found: Found, since: SinceLast | None) -> str:
    """The change since the last comparable run first (what a pull request asks), then the trend."""
    lines = ["### ponybench: since the last comparable run", ""]
    lines += _since_lines(since, md=True) or ["- no run"]
    last = found.entries[-1].run if found.entries else None
    moved = [m for s in found.series for m in trend.moves(s) if m.run_after == last]
    if moved:
        lines += ["", "**Tasks that moved:**", ""]
        lines += [f"- {m.arm} on {m.model}: {_move_line(m)}" for m in moved]
    lines += [
        "",
        "### Trend",
        "",
        "| arm | model | runs | pass rate per run | last |",
        "|---|---|---|---|---|",
    ]
    for s in found.series:
        rates = [trend.rate(p, s.arm, s.model) for p in s.points]
        per_run = " ".join(_pct(r.rate) for r in rates)
        spark = trend.sparkline([r.rate for r in rates])
        lines.append(
            f"| {s.arm} | {s.model} | {len(rates)} | `{spark}` {per_run} | {_rate_line(rates[-1])} |"
        )
    breaks = [s for s in found.series if s.why]
    if breaks:
        lines += ["", "**Breaks:**", ""]
        lines += [f"- {s.name}: {'; '.join(s.why)}" for s in breaks]
    flakes = [(s, f) for s in found.series for f in trend.flaky(s)]
    if flakes:
        lines += ["", "**Flaky tasks:**", ""]
        lines += [f"- {s.arm} on {s.model}: {_flaky_line(f)}" for s, f in flakes]
    return "\n".join(lines)


# -- export ------------------------------------------------------------------------------------


def _series_json(s: trend.Series) -> dict[str, Any]:
    rates = [trend.rate(p, s.arm, s.model) for p in s.points]
    return {
        "arm": s.arm,
        "model": s.model,
        "number": s.number,
        "runs": [p.run for p in s.points],
        "why": list(s.why),
        "versions": [{"run": run, "what": what} for run, what in s.versions],
        "rates": [
            {
                "run": r.run,
                "started": r.stamp,
                "passed": r.passed,
                "scored": r.scored,
                "invalid": r.invalid,
                "rate": r.rate,
                "low": r.low,
                "high": r.high,
                "score": r.score,
            }
            for r in rates
        ],
        "moves": [
            {
                "task": m.task,
                "kind": m.kind,
                "run_before": m.run_before,
                "run_after": m.run_after,
                "before": list(m.before),
                "after": list(m.after),
                "change_pp": m.change,
                "lost": m.lost,
                "gained": m.gained,
                "p": m.p,
            }
            for m in trend.moves(s)
        ],
        "flaky": [
            {
                "task": f.task,
                "arm_hash": f.arm_hash,
                "passed": f.passed,
                "scored": f.scored,
                "runs": f.runs,
                "rate": f.rate,
            }
            for f in trend.flaky(s)
        ],
        "slowest": [{"task": t.task, "wall_s": list(t.values)} for t in trend.trends(s, "wall_s", TOP)],
        "costliest": [{"task": t.task, "cost_usd": list(t.values)} for t in trend.trends(s, "cost_usd", TOP)],
    }


def to_json(found: Found, since: SinceLast | None) -> dict[str, Any]:
    """The whole history as one document (docs/history.md names every key)."""
    doc: dict[str, Any] = {
        "where": found.where,
        "runs": [e.to_json() for e in found.entries],
        "series": [_series_json(s) for s in found.series],
        "since_last": None,
        "problems": list(found.problems),
    }
    if since is not None:
        verdicts = []
        for row in since.rows:
            e = _primary(row)
            if e is not None:
                verdicts.append(
                    {
                        "model": row["model"],
                        "metric": e.metric,
                        "estimate": e.estimate,
                        "low": e.low,
                        "high": e.high,
                        "p": e.p_adj if e.p_adj is not None else e.p,
                        "tasks": e.n_tasks,
                        "word": verdict.word(e),
                    }
                )
        doc["since_last"] = {
            "run": since.run,
            "base": list(since.base),
            "notes": list(since.notes),
            "verdicts": verdicts,
        }
    return doc


CSV_COLUMNS = (
    "run",
    "started",
    "series",
    "arm",
    "model",
    "task",
    "task_hash",
    "arm_hash",
    "claude_version",
    "agent",
    "judge_model",
    "envelope",
    "passed",
    "scored",
    "invalid",
    "outcomes",
    "score",
    "wall_s",
    "cost_usd",
)


def to_csv(found: Found) -> str:
    """One row per run, task, arm and model (CSV_COLUMNS)."""
    number = {(s.arm, s.model, p.run): s.number for s in found.series for p in s.points}
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for e in found.entries:
        for c in e.point.cells:
            writer.writerow(
                [
                    e.run,
                    e.started or "",
                    number.get((c.arm, c.model, e.run), ""),
                    c.arm,
                    c.model,
                    c.task,
                    e.point.tasks.get(c.task, ""),
                    e.point.arms.get(c.arm) or "",
                    e.claude_version or "",
                    e.agent,
                    e.judge_model or "",
                    history.envelope_text(e.envelope),
                    c.passed,
                    c.scored,
                    c.outcomes.count(trend.INVALID),
                    c.outcomes,
                    "" if c.score is None else c.score,
                    "" if c.wall_s is None else c.wall_s,
                    "" if c.cost_usd is None else c.cost_usd,
                ]
            )
    return buf.getvalue()


def _write(path_text: str, text: str, what: str) -> None:
    path = Path(path_text)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise PonybenchError(f"--{what} {path}: cannot write it: {exc.strerror or exc}") from exc
    note(f"{what}: {path}")


# -- the command -------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    effect_rules, trigger_rules, health_rule = gate_rules(args.fail_on)
    if args.window < 1:
        raise PonybenchError(f"--window must be at least 1, not {args.window}")
    found = find(args.paths, args.rebuild)
    for problem in found.problems:
        note(problem)
    since = since_last(found, args.window)
    if args.json:
        json.dump(to_json(found, since), sys.stdout, indent=2, default=str)
        print()
    elif args.markdown:
        emit(render_markdown(found, since))
    else:
        emit(render_text(found, since))
    if args.csv:
        _write(args.csv, to_csv(found), "csv")
    if args.svg:
        from pytest_ponybench.htmlreport import trendview  # the report's drawing, only when asked

        _write(args.svg, trendview.sparklines_svg(found.series), "svg")
    if args.fail_on is None:
        return OK
    out = sys.stderr if args.json else sys.stdout
    if since is None or not since.rows:
        why = "; ".join(since.notes) if since is not None and since.notes else "no earlier comparable run"
        text = f"nothing to compare with: {why}"
        print(f"\n**Gate failed:** {text}" if args.markdown else f"gate failed: {text}", file=out)
        return GATE_FAILED
    with contextlib.redirect_stdout(out):  # --json keeps stdout one document
        return apply_gate(
            args.fail_on, effect_rules, trigger_rules, health_rule, since.rows, since.records, args.markdown
        )
