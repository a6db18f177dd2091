"""Assemble the report: one HTML page (the answer first: each arm's verdict per model, real
models before the scripted offline ones; then the run, each model's verdicts, plots and matrix,
the table of every cell) and the cells' details in script files beside it, which the page loads
when a cell is opened.

The page reads its data from an inline JSON block and inserts every record- or agent-written
string as text (never as HTML); the cell scripts hold JSON too. A Content-Security-Policy lets
only the page's own script and the cell scripts beside it run, and lets nothing be fetched.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from importlib import resources
from itertools import repeat
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from pytest_ponybench import __version__
from pytest_ponybench.analysis import health, report, stats, verdict
from pytest_ponybench.analysis.verdict.blocks import pass_rate_text
from pytest_ponybench.core.endpoint import is_offline
from pytest_ponybench.core.graders.cell import outcomes_of
from pytest_ponybench.core.records import Record, is_valid, latest, number, tokens
from pytest_ponybench.htmlreport import answer, brings, plots
from pytest_ponybench.htmlreport.details import (
    EXPECTED_KEY,
    SOURCE_KEY,
    Job,
    outcome,
    reason,
    write_parts,
)
from pytest_ponybench.htmlreport.source import Source

__all__ = ["Cell", "DETAILS_MODULE", "MARKER", "MAX_WORKERS", "PARALLEL_CELLS", "build"]

MARKER = ".ponybench-report"  # in the cells folder: ours to replace on the next build
# Above this many cells the details are built by worker processes (reading workspaces and
# transcripts is most of the work); below it starting them costs more than it saves.
PARALLEL_CELLS = 1_000
MAX_WORKERS = 4
DETAILS_MODULE = f"{__package__}.details"


@dataclass
class Cell:
    index: int
    rec: Record
    source: Source
    folder: Path | None
    group: int = 0
    part: str = ""


# --- the page's data ----------------------------------------------------------------------------


def _arm_order(arms: Iterable[str], baseline: str) -> list[str]:
    """The baseline first (whatever its name), then the others as the summary orders them."""
    names = report.arm_order(arms)
    return sorted(names, key=lambda a: a != baseline)


def _cells(records: Sequence[Record], sources: Sequence[Source], baseline: str) -> list[Cell]:
    """One cell per (task, arm, model, run): its latest attempt, as the summary counts it."""
    chosen = latest(records)
    arms = {a: i for i, a in enumerate(_arm_order((str(r.get("arm")) for r in chosen), baseline))}

    def key(r: Record) -> tuple[str, str, int, float, str]:
        run = number(r.get("run"))
        return (
            str(r.get("task")),
            str(r.get("model")),
            arms[str(r.get("arm"))],
            -1 if run is None else run,
            str(r.get("run")),
        )

    cells = []
    for i, rec in enumerate(sorted(chosen, key=key)):
        source = sources[rec.get(SOURCE_KEY, 0)]
        shown = Record(**rec)
        intended = source.summary.get("expected_failures")
        why = intended.get(str(rec.get("cell_id"))) if isinstance(intended, dict) else None
        if isinstance(why, str):
            shown[EXPECTED_KEY] = why
        cells.append(Cell(i, shown, source, source.cell_folder(rec)))
    groups: dict[tuple[str, str, str], int] = {}
    for c in cells:  # side by side: the arms of one (task, model, run)
        c.group = groups.setdefault(
            (str(c.rec.get("task")), str(c.rec.get("model")), str(c.rec.get("run"))), len(groups)
        )
    return cells


def _table(cells: Sequence[Cell]) -> dict[str, Any]:
    rows = []
    for c in cells:
        r = c.rec
        ms = number(r.get("duration_ms"))
        rows.append(
            [
                c.index,
                str(r.get("task")),
                str(r.get("arm")),
                str(r.get("model")),
                r.get("run") if isinstance(r.get("run"), int) else str(r.get("run")),  # sorts as a number
                outcome(r),
                reason(r),
                number(r.get("total_loc")),
                tokens(r),
                number(r.get("cost_usd")),
                None if ms is None else round(ms / 1000, 2),
                c.group,
                str(r.get("cell_id")),
                c.part,
                number(r.get("score")),
                _graders_passed(r),
            ]
        )
    columns = [
        "i",
        "task",
        "arm",
        "model",
        "run",
        "outcome",
        "reason",
        "loc",
        "tokens",
        "cost",
        "time",
        "group",
        "id",
        "part",
        "score",
        "graders",
    ]
    graded = any(row[-1] is not None for row in rows)
    return {"columns": columns, "rows": rows, "graded": graded}


def _graders_passed(rec: Record) -> str | None:
    """ "3/4": the cell's counted graders that passed, of those it has; None without graders."""
    counted = [o for o in outcomes_of(rec) if o.counts]
    return f"{sum(o.passed is True for o in counted)}/{len(counted)}" if counted else None


def _bar(value: float, kind: str) -> float:
    """Position 0-100 on the drawn interval's scale: rate changes over -100..+100 points,
    ratios on a log scale from a quarter to four times (what lies beyond is drawn at the edge)."""
    if kind == "rate_diff":
        x = (value + 100) / 2
    else:
        r = 1 + value / 100
        x = 0.0 if r <= 0 else (min(2.0, max(-2.0, math.log2(r))) + 2) * 25 if math.isfinite(r) else 100.0
    return round(min(100.0, max(0.0, x)), 2)


def _effect(e: stats.Effect) -> dict[str, Any]:
    decided = verdict.is_decided(e)
    fields = {f.name: getattr(e, f.name) for f in dataclasses.fields(e)}
    return {
        "metric": verdict.METRIC_NAMES.get(e.metric, e.metric),
        "estimate": verdict.fmt_estimate(e),
        "interval": verdict.fmt_interval(e),
        "word": verdict.word(e),
        "tasks": e.n_tasks,
        "p": verdict.fmt_p(e),
        "why": "" if decided else verdict.why_undecided(e),
        "drawn": e.n_tasks > 0,
        "low": _bar(e.low, e.kind),
        "high": _bar(e.high, e.kind),
        "at": _bar(e.estimate, e.kind),
        "zero": 50.0,
        "fields": "; ".join(f"{k} {v}" for k, v in fields.items()),
    }


def _pass_text(totals: Mapping[tuple[str, str], Mapping[str, Any]], model: str, arm: str) -> str:
    row = totals.get((model, arm))
    n = int(row.get("scored", row["valid"])) if row else 0  # open tasks have nothing to pass
    if row and not n and row.get("valid"):
        return f"{arm} no cell has a pass (graded by graders alone)"
    if not row or not n:
        return f"{arm} no valid cell"
    k = round(float(row["passed"] or 0) * n)
    return f"{arm} {pass_rate_text(k, n)}"


def _verdict_blocks(
    rows: Sequence[stats.ArmVerdict], totals: Mapping[tuple[str, str], Any]
) -> dict[str, list[Any]]:
    by_model: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        effects = row["effects"]
        by_model[row["model"]].append(
            {
                "title": f"{row['arm']} vs {row['baseline']}",
                "tasks": max((e.n_tasks for e in effects), default=0),
                "pass": [_pass_text(totals, row["model"], a) for a in (row["arm"], row["baseline"])],
                "effects": [_effect(e) for e in effects],
                "decided": verdict.decided_sentence(effects),
                "undecided": verdict.undecided_clauses(effects),
                # The procedure and family before the table; the bound, pass^k, floor after it.
                "header": verdict.header_lines(row),
                "footer": verdict.footer_lines(row),
                "notes": list(row.get("notes", [])),
            }
        )
    return by_model


def _matrix(rows: Sequence[Mapping[str, Any]], model: str, arms: Sequence[str]) -> list[dict[str, Any]]:
    """Task x arm pass fractions for one model, from the summary's own rows (report.aggregate)."""
    rows = [r for r in rows if r["model"] == model]
    by_task: dict[str, dict[str, Any]] = defaultdict(dict)
    for r in rows:
        n = int(r.get("scored", r["valid"]))  # an open task's cells have nothing to pass: 0/0
        k = round(float(r["passed"] or 0) * n)
        by_task[r["task"]][r["arm"]] = {
            "k": k,
            "n": n,
            "invalid": int(r["invalid"]),
            "frac": k / n if n else None,
        }
    return [{"task": t, "cells": [by_task[t].get(a) for a in arms]} for t in sorted(by_task)]


def _summary(totals: Sequence[Mapping[str, Any]], model: str) -> tuple[tuple[str, ...], list[list[str]]]:
    """The terminal's all-tasks block of one model, from report.model_totals' rows."""
    return report.table_rows([r for r in totals if r["model"] == model])


def _run_info(
    source: Source,
    records: Sequence[Record],
    brought: Mapping[str, str],
    failed: Mapping[str, Sequence[str]],
) -> dict[str, Any]:
    """The run's facts; records are its cells' (latest attempts, expected failures marked)."""
    run = source.run
    options = run.get("options") if isinstance(run.get("options"), dict) else {}
    assert isinstance(options, dict)
    models = options.get("models") or sorted({str(r.get("model")) for r in records})
    harness = run.get("harness") if isinstance(run.get("harness"), dict) else {}
    project = run.get("project") if isinstance(run.get("project"), dict) else {}
    chosen = latest(records)
    spent = number(source.spend.get("spent_usd"))
    offline = bool(models) and all(str(m).startswith("offline-") for m in models)
    invalid = [f"{r.get('cell_id')}: {r.get('error') or 'invalid'}" for r in chosen if not is_valid(r)]
    missing = run.get("missing") or source.summary.get("missing") or []
    preflight = run.get("preflight") if isinstance(run.get("preflight"), dict) else {}
    assert isinstance(preflight, dict)
    if not preflight:
        pre = "not recorded"
    elif not preflight.get("ran"):
        pre = "not run (offline models only, or skipped)"
    else:
        problems = preflight.get("problems") or []
        pre = "passed" if not problems else "failed: " + "; ".join(map(str, problems))
        if preflight.get("scope") == "activation":  # an offline run's: said, never refused
            pre = "each arm's activation check: " + ("ok" if not problems else "; ".join(map(str, problems)))
            kept = [a for a in preflight.get("arms") or [] if isinstance(a, dict) and a.get("reused")]
            if kept:  # said again from pytest's cache, not run in this session
                pre += "; " + ", ".join(f"arm {a.get('arm')} as checked {a['reused']}" for a in kept)
    rescored = sorted({str(r["rescored_from"]) for r in records if r.get("rescored_from")})
    return {
        "label": source.label,
        "path": str(source.path),
        "started": run.get("started"),
        "finished": run.get("finished"),
        "mode": run.get("mode"),
        "exitstatus": run.get("exitstatus"),
        "harness": f"{harness.get('version', '?')} ({_sha(harness)})" if harness else "?",
        "project": _sha(project) if project else "?",
        "claude": run.get("claude_version") or "?",
        "python": ", ".join(f"{k} {run.get(k.lower(), '?')}" for k in ("Python", "pytest", "xdist")),
        "models": ", ".join(map(str, models)),
        "runs": options.get("runs", "?"),
        "arms": [_arm(a, brought, failed) for a in run.get("arms") or [] if isinstance(a, dict)],
        "spend": "?"
        if spent is None
        else f"${spent:.4f}" + (" (offline models: notional, nothing was paid)" if offline else ""),
        "preflight": pre,
        "cells": len(chosen),
        "passed": sum(outcome(r) == "passed" for r in chosen),
        "failed": sum(outcome(r) == "failed" for r in chosen),
        "xfailed": sum(outcome(r) == "xfailed" for r in chosen),
        "invalid": invalid,
        "missing": [str(m) for m in missing],
        "rescored": rescored,
        "run_json": json.dumps(run, indent=1, default=str),
    }


def _part(part: Mapping[str, Any], arm: Mapping[str, Any], first_plugin: bool) -> str:
    """One part of an arm in words (run.json's `parts`)."""
    kind, value = str(part.get("kind")), str(part.get("value", ""))
    names = part.get("names") if isinstance(part.get("names"), list) else []
    listed = f" ({', '.join(map(str, names))})" if names else ""
    if kind == "plugin":
        return f"plugin {value}" + (f" ({_sha(arm)})" if first_plugin and "git_sha" in arm else "")
    if kind in ("prompt", "settings"):
        return f"{kind}: {value}"
    if kind == "claude-md":
        path, _, scope = value.rpartition("@")
        return f"CLAUDE.md {path} @{scope}"
    return f"{kind.replace('-', ' ')} {value}{listed}"


def _arm(
    arm: Mapping[str, Any], brought: Mapping[str, str], failed: Mapping[str, Sequence[str]]
) -> dict[str, Any]:
    """An arm as run.json describes it: name, kind, hash and what it adds, in words; what its
    sessions were given beside the baseline's (`brings`) and what of it failed in its cells."""
    what = []
    parts = arm.get("parts")
    if isinstance(parts, list):
        plugins = [i for i, p in enumerate(parts) if isinstance(p, dict) and p.get("kind") == "plugin"]
        first = plugins[0] if plugins else -1  # run.json's git state is of the first plugin
        what = [_part(p, arm, i == first) for i, p in enumerate(parts) if isinstance(p, dict)]
    else:  # run dirs from before arms had parts
        if arm.get("plugin_dir"):
            what.append(f"plugin {arm['plugin_dir']}" + (f" ({_sha(arm)})" if "git_sha" in arm else ""))
        if arm.get("prompt"):
            what.append(f"prompt: {arm['prompt']}")
        if arm.get("settings"):
            settings = arm["settings"]
            what.append(f"settings: {settings if isinstance(settings, str) else json.dumps(settings)}")
    return {
        "name": str(arm.get("name", "?")),
        "kind": str(arm.get("kind", "?")),
        "hash": str(arm.get("hash", "?")),
        "what": "; ".join(what) or ("nothing added" if arm.get("kind") == "baseline" else "-"),
        "brings": brought.get(str(arm.get("name")), ""),
        "health": list(failed.get(str(arm.get("name")), ())),
    }


def _brings(source: Source, cells: Sequence[Cell], baseline: str) -> dict[str, str]:
    """What each arm brings, in words: the pre-flight's evidence when it ran, else a kept cell
    of the arm beside the baseline's cell of the same task, model and run (or any)."""
    pre = source.run.get("preflight")
    checked = pre.get("arms") if isinstance(pre, dict) and pre.get("ran") else None
    if isinstance(checked, list):
        return {
            str(res.get("arm")): brings.words(brings.from_evidence(res["evidence"]))
            for res in checked
            if isinstance(res, dict) and isinstance(res.get("evidence"), dict)
        }
    kept = [c for c in cells if c.folder is not None and c.source is source]
    bases = [c for c in kept if str(c.rec.get("arm")) == baseline]
    out: dict[str, str] = {}
    for cell in kept:
        arm = str(cell.rec.get("arm"))
        if arm == baseline or arm in out or not bases:
            continue
        base = next((b for b in bases if b.group == cell.group), bases[0])
        assert cell.folder is not None and base.folder is not None
        out[arm] = brings.words(brings.from_streams(cell.folder, base.folder))
    return out


def _sha(info: Mapping[str, Any]) -> str:
    sha = info.get("git_sha")
    if not sha:
        return "not a git checkout"
    return f"git {str(sha)[:12]}" + (", dirty" if info.get("git_dirty") else ", clean")


# --- files --------------------------------------------------------------------------------------


def _write_parts(cells: Sequence[Cell], folder: Path, page_dir: Path) -> None:
    """The cells' details as scripts in folder; sets each cell's part. A large run is split
    over worker processes, each writing the parts of a contiguous slice of the cells."""
    jobs: list[Job] = [(c.index, c.rec, str(c.folder) if c.folder else None) for c in cells]
    workers = min(MAX_WORKERS, os.cpu_count() or 1)
    if len(jobs) < PARALLEL_CELLS or workers < 2:
        parts = write_parts(jobs, page_dir, folder, "")
    else:
        # Plain child interpreters fed JSON on stdin: unlike multiprocessing's spawn they need
        # nothing from the caller's __main__ (a pytest controller, a script without a main guard).
        size = -(-len(jobs) // workers)
        slices = [jobs[i : i + size] for i in range(0, len(jobs), size)]
        with ThreadPoolExecutor(workers) as pool:
            done = pool.map(
                _worker, slices, repeat(page_dir), repeat(folder), [f"{k}-" for k in range(len(slices))]
            )
            parts = {index: part for written in done for index, part in written.items()}
    for cell in cells:
        cell.part = parts[cell.index]


def _worker(jobs: Sequence[Job], page_dir: Path, folder: Path, prefix: str) -> dict[int, str]:
    request = {"page_dir": str(page_dir), "folder": str(folder), "prefix": prefix, "jobs": jobs}
    done = subprocess.run(
        [sys.executable, "-m", DETAILS_MODULE],
        input=json.dumps(request, default=str).encode(),
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"a report worker failed: {done.stderr.decode(errors='replace')[-2000:]}")
    return {int(i): str(part) for i, part in json.loads(done.stdout).items()}


def _static(name: str) -> str:
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


def _script_json(data: Any) -> str:
    """JSON for an inline <script type="application/json">: no '<', '>' or '&' left to end it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _csp_hash(script: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader(__package__, "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def build(
    sources: Sequence[Source],
    records: Sequence[Record],
    rows: Sequence[stats.ArmVerdict],
    out: Path,
    *,
    title: str,
    baseline: str = "baseline",
    baseline_note: str = "",
    trend: Mapping[str, Any] | None = None,
) -> Path:
    """Write the page at `out` and the cell scripts in the folder beside it named after it."""
    t0 = time.monotonic()
    out = out.absolute()
    if out.is_dir():
        raise FileExistsError(f"{out}: is a folder; name the page's file, e.g. {out / 'report.html'}")
    out.parent.mkdir(parents=True, exist_ok=True)
    cells_dir = out.with_suffix("") if out.suffix else out.with_name(out.name + "-cells")
    if cells_dir.exists() and not (cells_dir / MARKER).exists():
        raise FileExistsError(f"{cells_dir}: exists and is not a report's cell folder; pick another -o")
    cells = _cells(records, sources, baseline)
    models = answer.model_order(str(c.rec.get("model")) for c in cells)
    arms = _arm_order((str(c.rec.get("arm")) for c in cells), baseline)
    model_rows = report.model_totals(c.rec for c in cells)
    totals = {(r["model"], r["arm"]): r for r in model_rows}
    blocks = _verdict_blocks(rows, totals)
    # Of one run only: a comparison's arms are the two runs' labels, which no session was given.
    brought = _brings(sources[0], cells, baseline) if len(sources) == 1 else {}
    failed: dict[str, list[str]] = {}
    for problem in health.problems(c.rec for c in cells):
        failed.setdefault(problem.arm, []).append(problem.text())

    tmp = Path(tempfile.mkdtemp(prefix=f".{cells_dir.name}.", dir=out.parent))
    parts: Future[None] | None = None
    try:
        (tmp / MARKER).write_text(f"pytest-ponybench {__version__} report cells\n")
        # The cells' details (most of the work) are written while the page is drawn here.
        writing = ThreadPoolExecutor(1)
        parts = writing.submit(_write_parts, cells, tmp, out.parent)
        writing.shutdown(wait=False)
        task_rows = report.aggregate(c.rec for c in cells)
        task_link = {t: f"#task={quote(t)}" for t in {str(c.rec.get("task")) for c in cells}}
        sections = []
        for model in models:
            mine = [c for c in cells if str(c.rec.get("model")) == model]
            model_arms = [a for a in arms if any(str(c.rec.get("arm")) == a for c in mine)]
            sections.append(
                {
                    "model": model,
                    "offline": is_offline(model),
                    "verdicts": blocks.get(model, []),
                    "columns": _summary(model_rows, model)[0],
                    "summary": _summary(model_rows, model)[1],
                    "figure": Markup(
                        plots.model_figure([c.rec for c in mine], model_arms, task_link, key=model)
                    ),
                    "arms": model_arms,
                    "matrix": _matrix(task_rows, model, model_arms),
                }
            )
        parts.result()
        table = _table(cells)
        data = {
            "table": table,
            "cellsDir": quote(cells_dir.name),
            "arms": arms,
            "models": models,
            "tasks": sorted({str(c.rec.get("task")) for c in cells}),
        }
        script = _static("report.js")
        page = (
            _environment()
            .get_template("report.html.j2")
            .render(
                title=title,
                runs=[
                    _run_info(s, [c.rec for c in cells if c.source is s], brought, failed) for s in sources
                ],
                answers=answer.answers(rows, arms, brought, failed),
                offline_note=answer.OFFLINE_NOTE,
                sections=sections,
                intro=verdict.INTRO,
                baseline_note=baseline_note,
                trend=trend,
                data=Markup(_script_json(data)),
                style=Markup(_static("report.css")),
                script=Markup(script),
                script_hash=_csp_hash(script),
                version=__version__,
                build_s=f"{time.monotonic() - t0:.1f}",
                n_cells=len(cells),
                graded=table["graded"],
            )
        )
        if cells_dir.exists():
            shutil.rmtree(cells_dir)
        tmp.chmod(0o755)  # mkdtemp's 0700 would hide the cells from whoever the report is shared with
        tmp.rename(cells_dir)
    except BaseException:
        if parts is not None:
            wait([parts])  # never remove the folder under a writer
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    fd, tmp_page = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(page)
        os.chmod(tmp_page, 0o644)
        os.replace(tmp_page, out)
    except BaseException:
        Path(tmp_page).unlink(missing_ok=True)
        raise
    return out
