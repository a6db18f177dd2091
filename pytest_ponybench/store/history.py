"""The history index: one line per finished run in the out folder's `history.jsonl`, so a view
of many runs never reopens every record.

A session appends its run's line when it finishes (`RunDir.finish`), a merge when it writes
into a folder that keeps an index, and `ponybench history` for any run dir it finds in the
folder that the index does not name yet (one copied in from a CI artefact). The file is only
ever appended to, each line written whole under a lock; a run that is resumed and finishes
again gets a second line, and the reader keeps the last line of each run. `rebuild` writes it
anew from the run dirs.

A line (`Entry.to_json`, the schema docs/history.md documents): the run dir (relative to the
folder), when it started and finished, the mode, the git state of the project and of each
plugin arm, the harness, agent CLI and judge versions, the resource envelope, the grid (tasks
and arms with their hashes, models, runs, grid hash) and the figures of every (task, arm,
model): each cell's outcome by run index, mean score, wall time and cost (`trend.Cells`).
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from pytest_ponybench._util import textfiles
from pytest_ponybench.analysis import trend
from pytest_ponybench.core.records import Record, loaded
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.store import runinfo
from pytest_ponybench.store.runinfo import RUN_JSON, RunInfo, RunInfoError

__all__ = [
    "FORM",
    "INDEX",
    "SHAPING",
    "Entry",
    "Index",
    "append",
    "entry_of",
    "envelope_text",
    "is_run_dir",
    "join",
    "read",
    "rebuild",
    "run_dirs",
    "update",
]

INDEX: Final = "history.jsonl"
FORM: Final = 1  # the line's form; a later version that changes it counts up
# The recorded options that move a cell's outcome besides the arm (a series breaks where one
# changes); the selection, the budget and the verdict's design do not.
SHAPING: Final = {"cell_timeout": "cell timeout", "max_turns": "max turns", "judge_runs": "judge runs"}
_RESULTS = "results.jsonl"  # store/results.py's name; that module imports this one


def envelope_text(envelope: Mapping[str, Any] | None) -> str:
    """The resource envelope in words, the same for the same envelope ("not recorded": none)."""
    if not envelope:
        return "not recorded"
    parts = []
    if envelope.get("cpus") is not None:
        parts.append(f"{envelope['cpus']} CPUs")
    if envelope.get("cpu_quota") is not None:
        parts.append(f"quota {envelope['cpu_quota']} CPUs")
    if envelope.get("memory_gib") is not None:
        parts.append(f"{envelope['memory_gib']} GiB")
    if envelope.get("memory_limit_gib") is not None:
        parts.append(f"limit {envelope['memory_limit_gib']} GiB")
    parts.append(f"workers {envelope.get('workers') or 'none'}")
    return ", ".join(parts)


@dataclass(frozen=True)
class Entry:
    """One line of the index. `run` is the run dir relative to the index's folder (absolute
    when it lies elsewhere); `point` is what the trend reads; the rest is shown and exported."""

    run: str
    started: str | None
    finished: str | None
    mode: str | None
    project: runinfo.GitState
    harness: str | None
    arm_git: Mapping[str, runinfo.GitState]
    claude_version: str | None
    agent: str
    judge_model: str | None
    envelope: Mapping[str, Any] | None
    models: tuple[str, ...]
    runs: int | None
    grid_hash: str | None
    options: Mapping[str, Any]
    point: trend.Point
    kept: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        p = self.point
        return {
            "form": FORM,
            "run": self.run,
            "started": self.started,
            "finished": self.finished,
            "mode": self.mode,
            "project": self.project.to_json(),
            "harness": self.harness,
            "arm_git": {a: g.to_json() for a, g in self.arm_git.items()},
            "claude_version": self.claude_version,
            "agent": self.agent,
            "judge_model": self.judge_model,
            "envelope": dict(self.envelope) if self.envelope is not None else None,
            "tasks": dict(p.tasks),
            "arms": dict(p.arms),
            "models": list(self.models),
            "runs": self.runs,
            "grid_hash": self.grid_hash,
            "options": dict(self.options),
            "cells": [c.to_json() for c in p.cells],
            **self.kept,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        """ValueError naming what is malformed."""
        run = data.get("run")
        if not isinstance(run, str) or not run:
            raise ValueError("a line without its run dir ('run')")
        if data.get("form", FORM) != FORM:
            raise ValueError(f"{run}: a line of form {data.get('form')!r}, this version reads {FORM}")
        tasks, arms, cells = data.get("tasks"), data.get("arms"), data.get("cells")
        if not isinstance(tasks, dict) or not isinstance(arms, dict) or not isinstance(cells, list):
            raise ValueError(f"{run}: tasks, arms and cells must be a table, a table and a list")
        envelope = data.get("envelope")
        envelope = envelope if isinstance(envelope, dict) else None
        arm_git, project = data.get("arm_git"), data.get("project")
        arm_git = arm_git if isinstance(arm_git, dict) else {}
        project = project if isinstance(project, dict) else {}
        entry = cls(
            run=run,
            started=_text(data.get("started")),
            finished=_text(data.get("finished")),
            mode=_text(data.get("mode")),
            project=_git(project),
            harness=_text(data.get("harness")),
            arm_git={str(a): _git(g) for a, g in arm_git.items() if isinstance(g, dict)},
            claude_version=_text(data.get("claude_version")),
            agent=_text(data.get("agent")) or "claude",
            judge_model=_text(data.get("judge_model")),
            envelope=envelope,
            models=tuple(str(m) for m in data.get("models") or ()),
            runs=data["runs"] if isinstance(data.get("runs"), int) else None,
            grid_hash=_text(data.get("grid_hash")),
            options=data["options"] if isinstance(data.get("options"), dict) else {},
            point=trend.Point(
                run=run,
                stamp=_text(data.get("started")) or "",
                tasks={str(t): str(h) for t, h in tasks.items()},
                arms={str(a): None if h is None else str(h) for a, h in arms.items()},
                conditions={},
                cells=tuple(trend.Cells.from_json(c) for c in cells if isinstance(c, dict)),
            ),
            kept={k: v for k, v in data.items() if k not in _KEYS},
        )
        return entry.with_conditions()

    def with_conditions(self) -> Entry:
        """The entry with its point's conditions: what a series must share besides the tasks."""
        conditions = {
            "agent": self.agent,
            "CLI version": self.claude_version or "not recorded",
            "judge model": self.judge_model or "not recorded",
            "envelope": envelope_text(self.envelope),
        }
        for key, name in SHAPING.items():
            value = self.options.get(key)
            conditions[name] = "not recorded" if value is None else str(value)
        return replace(self, point=replace(self.point, conditions=conditions))


_KEYS = frozenset(
    "form run started finished mode project harness arm_git claude_version agent judge_model envelope "
    "tasks arms models runs grid_hash options cells".split()
)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _git(data: Mapping[str, Any]) -> runinfo.GitState:
    sha, dirty = data.get("git_sha"), data.get("git_dirty")
    return runinfo.GitState(sha if isinstance(sha, str) else None, dirty if isinstance(dirty, bool) else None)


def _agent(records: Iterable[Record]) -> str:
    """The agent CLIs the cells ran (a record without the field ran claude)."""
    return ",".join(sorted({str(r.get("agent") or "claude") for r in records})) or "claude"


def _name(run_dir: Path, folder: Path) -> str:
    try:
        return str(run_dir.resolve().relative_to(folder.resolve()))
    except ValueError:
        return str(run_dir.resolve())


def is_run_dir(path: Path) -> bool:
    return path.is_dir() and (path / RUN_JSON).is_file() and (path / _RESULTS).is_file()


def entry_of(run_dir: Path, folder: Path | None = None, records: list[Record] | None = None) -> Entry:
    """A run dir's line, named relative to `folder` (default: the run dir's own folder).
    RunInfoError when run.json cannot be read; a run dir without records has no cells."""
    info: RunInfo = runinfo.read(run_dir)
    if records is None:
        lines = textfiles.read_jsonl(run_dir / _RESULTS).objects
        records = [loaded(textfiles.clean(r)) for r in lines if "task" in r]
    opts = info.options
    entry = Entry(
        run=_name(run_dir, folder if folder is not None else run_dir.parent),
        started=info.started,
        finished=info.finished,
        mode=info.mode,
        project=info.project,
        harness=info.harness.version,
        arm_git={a.name: a.git for a in info.arms if a.git is not None},
        claude_version=info.claude_version,
        agent=_agent(records),
        judge_model=opts.judge_model,
        envelope=info.envelope,
        models=tuple(opts.models or ()),
        runs=opts.runs.count if opts.runs is not None else None,
        grid_hash=info.grid_hash,
        options=opts.recorded(),
        point=trend.Point(
            run="",
            stamp=info.started or "",
            tasks=dict(info.tasks),
            arms={a.name: a.hash for a in info.arms},
            conditions={},
            cells=trend.cells_of(records),
        ),
    )
    return replace(entry, point=replace(entry.point, run=entry.run)).with_conditions()


# -- the file ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Index:
    """The index as read: the last line of each run dir, oldest run first, and the lines that
    could not be read (torn, garbled, of another form), in words."""

    entries: tuple[Entry, ...]
    problems: tuple[str, ...] = ()

    def names(self) -> set[str]:
        return {e.run for e in self.entries}


def read(folder: Path) -> Index:
    """The folder's history.jsonl (no file: an empty index)."""
    path = folder / INDEX
    try:
        lines = textfiles.read_jsonl(path)
    except OSError as exc:
        raise PonybenchError(f"{path}: cannot read it: {exc.strerror or exc}") from exc
    by_run: dict[str, Entry] = {}
    problems = (
        [f"{path}: {lines.bad} line(s) are not JSON objects (torn or garbled), left out"] if lines.bad else []
    )
    for n, data in enumerate(lines.objects, start=1):
        try:
            entry = Entry.from_json(data)
        except ValueError as exc:
            problems.append(f"{path}: line {n}: {exc}")
            continue
        by_run.pop(entry.run, None)  # the last line of a run is the one that counts
        by_run[entry.run] = entry
    entries = sorted(by_run.values(), key=lambda e: (e.point.stamp, e.run))
    return Index(tuple(entries), tuple(problems))


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """The folder itself locked (flock on its descriptor): writers of its index take turns, and
    the folder gains no lock file beside the run dirs."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _lines(entries: Iterable[Entry]) -> str:
    return "".join(json.dumps(e.to_json(), default=str) + "\n" for e in entries)


def _append_lines(folder: Path, entries: Iterable[Entry]) -> None:
    text = _lines(entries)
    if not text:
        return
    with _locked(folder):
        path = folder / INDEX
        # A crash mid-write can leave a torn last line: end it, so this line stays whole.
        torn = path.exists() and path.stat().st_size > 0 and path.read_bytes()[-1:] != b"\n"
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (("\n" if torn else "") + text).encode())
            os.fsync(fd)
        finally:
            os.close(fd)


def append(folder: Path, entry: Entry) -> None:
    """One line appended whole to the folder's index (made when missing)."""
    _append_lines(folder, [entry])


def join(run_dir: Path, records: list[Record] | None = None, *, create: bool = True) -> bool:
    """The run dir's line appended to the index of the folder it lies in; with create=False only
    where that folder keeps an index already. Whether a line was written."""
    folder = run_dir.parent
    if not create and not (folder / INDEX).is_file():
        return False
    append(folder, entry_of(run_dir, folder, records))
    return True


def run_dirs(folder: Path) -> list[Path]:
    """The run dirs directly in the folder (a rescore inside a run dir is that run's own)."""
    try:
        children = sorted(folder.iterdir())
    except OSError as exc:
        raise PonybenchError(f"{folder}: cannot list it: {exc.strerror or exc}") from exc
    return [p for p in children if is_run_dir(p)]


def update(folder: Path) -> tuple[Index, list[str]]:
    """The index with every finished run dir of the folder it does not name yet appended (a run
    copied in, a merge written there); the run dirs that could not be read, in words."""
    index = read(folder)
    known = index.names()
    new, problems = [], []
    for run_dir in run_dirs(folder):
        if _name(run_dir, folder) in known:
            continue
        try:
            info = runinfo.read(run_dir)
        except (OSError, RunInfoError) as exc:
            problems.append(f"{run_dir}: {exc}")
            continue
        if info.finished is None:
            continue  # still running, or it died: it joins when it finishes (or with --rebuild)
        new.append(entry_of(run_dir, folder))
    if new:
        _append_lines(folder, new)
        index = read(folder)
    return index, [*index.problems, *problems]


def rebuild(folder: Path) -> tuple[Index, list[str]]:
    """The index written anew from the folder's run dirs (finished or not), replaced whole."""
    entries, problems = [], []
    for run_dir in run_dirs(folder):
        try:
            entries.append(entry_of(run_dir, folder))
        except (OSError, RunInfoError) as exc:
            problems.append(f"{run_dir}: {exc}")
    entries.sort(key=lambda e: (e.point.stamp, e.run))
    text = _lines(entries)
    with _locked(folder):
        tmp = folder / f".{INDEX}.tmp"
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, folder / INDEX)
    index = read(folder)
    return index, [*index.problems, *problems]
