"""Merge: shard run dirs of one grid joined into one run dir that every command accepts.

The parts must describe the same grid (tasks, arms, models, runs: the grid hash, which holds the
task and arm content hashes) and, unless allowed, the same claude version and resource envelope.
Every record and every cell folder is taken; a cell recorded by more than one part is reported
as a duplicate and, as everywhere, its last valid attempt counts (parts are ordered by when they
started). Cells of the grid that no part recorded (a shard that never arrived) are listed by id;
`pytest --resume OUT` runs exactly those.

The inputs are only read. Cell folders are hard-linked where the file system allows (a merged
dir of thousands of workspaces costs no copy), else copied; symlinks an agent left in a
workspace are kept as links, never followed.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pytest_ponybench.analysis import report
from pytest_ponybench.core.records import Record, latest
from pytest_ponybench.core.shards import GridSpec, describe_difference
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.store import owner, runinfo
from pytest_ponybench.store.results import (
    REPORT,
    RESULTS,
    SUMMARY,
    RunDir,
    now_iso,
    read_records,
    write_json,
)
from pytest_ponybench.store.runinfo import RUN_JSON, RunInfo, RunInfoError
from pytest_ponybench.store.spend import LEDGER

__all__ = ["MergeError", "Merged", "Part", "check_parts", "merge", "read_part"]


class MergeError(PonybenchError):
    """The parts cannot be merged (not run dirs, another grid, mixed claude versions)."""


@dataclass
class Part:
    path: Path
    info: RunInfo
    records: list[Record]
    spec: GridSpec

    @property
    def claude_version(self) -> str | None:
        return self.info.claude_version or None

    def provenance(self) -> dict[str, Any]:
        """Where this part came from, for the merged run.json."""
        keep = ("shard", "started", "finished", "exitstatus", "argv", "claude_version", "harness", "platform")
        written = self.info.to_json()
        out: dict[str, Any] = {"path": str(self.path), "records": len(self.records)}
        for key in keep:
            if key in written:
                value = written[key]
                if key == "shard":
                    value = {k: v for k, v in value.items() if k != "cells"}
                out[key] = value
        return out


@dataclass
class Merged:
    out: Path
    expected: int
    recorded: int
    missing: list[str]
    duplicates: dict[str, list[str]] = field(default_factory=dict)
    claude_versions: dict[str, str | None] = field(default_factory=dict)
    spent_usd: float = 0.0
    envelopes: dict[str, str] = field(default_factory=dict)  # each part's, when they differ

    @property
    def mixed(self) -> bool:
        return len(set(self.claude_versions.values())) > 1


def read_part(path: Path) -> Part:
    if not path.is_dir():
        raise MergeError(f"{path}: no such run dir")
    run_json = path / RUN_JSON
    if not run_json.is_file():
        raise MergeError(f"{path}: no {RUN_JSON}, so not a ponybench run dir")
    try:
        info = runinfo.read(path)
        info.check()
        spec = info.grid_spec()
    except (OSError, RunInfoError, ValueError) as exc:
        raise MergeError(f"{run_json}: {exc}") from None
    return Part(path, info, read_records(path / RESULTS), spec)


def check_parts(parts: Sequence[Part], allow_mixed: bool) -> None:
    """One grid, one claude version (unless allowed); the message names every difference."""
    first = parts[0]
    problems: list[str] = []
    for part in parts[1:]:
        diff = describe_difference(first.spec, part.spec, str(first.path), str(part.path))
        if diff:
            problems.append(
                f"{part.path} is a shard of another grid (grid hash {part.spec.hash}, "
                f"not {first.spec.hash}): " + "; ".join(diff)
            )
    if problems:
        raise MergeError(
            "refusing to merge run dirs of different grids:\n" + "\n".join(f"  - {p}" for p in problems)
        )
    versions = {str(p.path): p.claude_version for p in parts}
    if len(set(versions.values())) > 1 and not allow_mixed:
        listed = ", ".join(f"{path}: {v or 'unknown'}" for path, v in versions.items())
        raise MergeError(
            f"the parts ran different claude versions ({listed}); their cells are not comparable. "
            "Pass --allow-mixed to merge them anyway (the versions are recorded in run.json)"
        )
    envelopes = _envelopes(parts)
    if len(set(envelopes.values())) > 1 and not allow_mixed:
        listed = "; ".join(f"{path}: {text}" for path, text in envelopes.items())
        raise MergeError(
            f"the parts ran with different resources ({listed}); the same benchmark moves by points "
            "between them. Pass --allow-mixed to merge them anyway (each part's is recorded in run.json)"
        )


def _envelopes(parts: Sequence[Part]) -> dict[str, str]:
    """Each part's resource envelope in words (store/history's wording)."""
    from pytest_ponybench.store.history import envelope_text

    return {str(p.path): envelope_text(p.info.envelope) for p in parts}


def _link_tree(src: Path, dst: Path) -> None:
    def link_or_copy(s: str, d: str) -> None:
        try:
            os.link(s, d)
        except OSError:
            shutil.copy2(s, d)

    shutil.copytree(src, dst, symlinks=True, copy_function=link_or_copy)


def _attempt_folders(part: Part, cell_id: str) -> list[Path]:
    """A part's folders of one cell, oldest attempt first: <id>~1, <id>~2, ..., then <id>."""
    cells = part.path / "cells"
    older = sorted(
        (p for p in cells.glob(f"{cell_id}~*") if p.name.rsplit("~", 1)[1].isdigit()),
        key=lambda p: int(p.name.rsplit("~", 1)[1]),
    )
    current = cells / cell_id
    return older + ([current] if current.is_dir() else [])


def _copy_cells(parts: Sequence[Part], records: list[Record], out: RunDir) -> None:
    """Every cell folder of every part; cells/<id> is the folder of the attempt that counts."""
    counted = {str(r.get("cell_id")): id(r) for r in latest(records)}
    owner: dict[int, Part] = {id(r): p for p in parts for r in p.records}
    ids = sorted(
        {p.name.split("~", 1)[0] for part in parts for p in (part.path / "cells").glob("*") if p.is_dir()}
    )
    for cell_id in ids:
        winner = owner.get(counted[cell_id]) if cell_id in counted else None
        folders: list[Path] = []
        last: Path | None = None
        for part in parts:
            found = _attempt_folders(part, cell_id)
            if part is winner and found and found[-1].name == cell_id:
                last = found.pop()  # the counted attempt's workspace becomes cells/<id>
            folders += found
        if last is None and folders and winner is None:
            last = folders.pop()  # no record at all: the newest folder is the current one
        for n, folder in enumerate(folders, start=1):
            _link_tree(folder, out.cell_dir(f"{cell_id}~{n}").path)
        if last is not None:
            _link_tree(last, out.cell_dir(cell_id).path)


def _merge_report(parts: Sequence[Part]) -> dict[str, Any] | None:
    """pytest-json-report's files joined: every test of every part, the counts summed."""
    reports = []
    for part in parts:
        try:
            data = json.loads((part.path / REPORT).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        if isinstance(data, dict):
            reports.append(data)
    if not reports:
        return None
    tests = [t for r in reports for t in r.get("tests") or [] if isinstance(t, dict)]
    counts = Counter(str(t.get("outcome")) for t in tests)
    merged = dict(reports[0])
    merged["tests"] = tests
    merged["summary"] = {**dict(counts), "total": len(tests), "collected": len(tests)}
    merged["duration"] = sum(float(r.get("duration") or 0.0) for r in reports)
    merged.pop("collectors", None)  # per-process collection trees do not add up
    return merged


def _spend(parts: Sequence[Part]) -> dict[str, Any]:
    spent, dearest = 0.0, None
    for part in parts:
        try:
            data = json.loads((part.path / LEDGER).read_text())
        except (OSError, json.JSONDecodeError):
            continue
        spent += float(data.get("spent_usd") or 0.0)
        cell = data.get("max_cell_usd")
        if cell is not None:
            dearest = max(float(cell), dearest or 0.0)
    return {"spent_usd": spent, "max_cell_usd": dearest, "running": {}}


def merge(paths: Sequence[Path], out: Path, *, allow_mixed: bool = False) -> Merged:
    """Write the merged run dir at out (which must not exist yet) and say what it holds.

    Each part is held shared while it is read (a part that a session still writes is refused:
    a record appended after the read would be missing from the merge, and run twice by a resume
    of it), and out exclusively while it is written (two merges into one out: one is refused)."""
    holds: list[owner.Hold] = []
    try:
        return _merge(paths, out, allow_mixed, holds)
    finally:
        for held in holds:
            held.release()


def _merge(paths: Sequence[Path], out: Path, allow_mixed: bool, holds: list[owner.Hold]) -> Merged:
    if not paths:
        raise MergeError("give at least one run dir to merge")
    resolved = [p.resolve() for p in paths]
    if len(set(resolved)) != len(resolved):
        twice = sorted({str(p) for p in resolved if resolved.count(p) > 1})
        raise MergeError(f"run dir given twice: {', '.join(twice)}")
    # A merge that died after taking out leaves only the lock file: out is still empty.
    if out.exists() and (not out.is_dir() or any(p.name != owner.OWNER for p in out.iterdir())):
        raise MergeError(f"-o {out}: exists and is not empty; merge writes a new run dir")
    if any(out.resolve() == p or p in out.resolve().parents for p in resolved):
        raise MergeError(f"-o {out}: lies inside a run dir being merged")
    parts = []
    for path in paths:
        if path.is_dir():
            holds.append(owner.hold(path, "ponybench merge", shared=True))
        parts.append(read_part(path))
    check_parts(parts, allow_mixed)
    # Oldest first, so "the last valid attempt" means the latest in time across machines.
    parts.sort(key=lambda p: p.info.started or "")
    records = [r for p in parts for r in p.records]
    spec = parts[0].spec
    expected = spec.cell_ids()

    holders: dict[str, list[str]] = defaultdict(list)
    for part in parts:
        for cell_id in dict.fromkeys(str(r.get("cell_id")) for r in part.records):
            holders[cell_id].append(str(part.path))
    duplicates = {c: ps for c, ps in holders.items() if len(ps) > 1}
    missing = [c for c in expected if c not in holders]

    out.mkdir(parents=True, exist_ok=True)
    holds.append(owner.hold(out, "ponybench merge -o"))
    if any(p.name != owner.OWNER for p in out.iterdir()):  # another merge wrote it meanwhile
        raise MergeError(f"-o {out}: exists and is not empty; merge writes a new run dir")
    run_dir = RunDir(out)
    with open(run_dir.results, "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, default=str) + "\n")
    _copy_cells(parts, records, run_dir)
    spend = _spend(parts)
    write_json(out / LEDGER, spend)
    joined = _merge_report(parts)
    if joined is not None:
        write_json(out / REPORT, joined)

    versions = {str(p.path): p.claude_version for p in parts}
    first = parts[0].info
    shares = [p.info.options.budget_usd for p in parts]
    options = first.options
    if all(b is not None for b in shares):
        options = replace(options, budget_usd=sum(b for b in shares if b is not None))  # each shard's share
    starts = [p.info.started for p in parts if p.info.started]
    ends = [p.info.finished for p in parts if p.info.finished]
    info = replace(
        first,
        # What describes one process's run, not the merged grid, is kept per part instead.
        shard=None,
        exitstatus=None,
        argv=None,
        cwd=None,
        preflight=None,
        warmup=None,
        options=options,
        mode="merge",
        grid_hash=spec.hash,
        grid=tuple(expected),
        started=min(starts) if starts else now_iso(),
        finished=max(ends) if ends else now_iso(),
        missing=tuple(missing),
        merged={
            "at": now_iso(),
            "parts": [p.provenance() for p in parts],
            "duplicates": duplicates,
            "claude_versions": versions,
            "mixed_claude_versions": len(set(versions.values())) > 1,
            "spent_usd": spend["spent_usd"],
        },
    )
    if len(set(versions.values())) > 1:
        info = replace(info, claude_version=None)  # no single version ran this grid; see merged
    envelopes = _envelopes(parts)
    if len(set(envelopes.values())) > 1:
        merged = {**(info.merged or {}), "envelopes": envelopes}
        info = replace(info, envelope=None, merged=merged)  # no single envelope; each part's kept
    write_json(out / RUN_JSON, info.to_json())
    intended: dict[str, Any] = {}
    for part in parts:  # the cells each part's offline agent failed on purpose, as each said
        try:
            said = json.loads((part.path / SUMMARY).read_text(encoding="utf-8")).get("expected_failures")
        except (OSError, ValueError, AttributeError):
            said = None
        intended.update(said if isinstance(said, dict) else {})
    write_json(
        out / SUMMARY,
        {
            "rows": report.aggregate(records),
            "models": report.model_totals(records),
            "missing": missing,
            "expected_failures": {k: v for k, v in sorted(intended.items()) if k in set(expected)},
        },
    )
    from pytest_ponybench.store import history  # it reads run dirs through this wing's modules

    history.join(out, records, create=False)  # a folder that keeps an index gains the merge
    return Merged(
        out=out,
        expected=len(expected),
        recorded=len(expected) - len(missing),
        missing=missing,
        duplicates=duplicates,
        claude_versions=versions,
        spent_usd=float(spend["spent_usd"]),
        envelopes=envelopes if len(set(envelopes.values())) > 1 else {},
    )
