"""A run dir as the report reads it: its files, its records, and where each cell's folder is.

Only reads. A resumed run appends attempts to one results.jsonl; an attempt that a later one
replaced keeps its folder as `cells/<id>~<attempt>`. A rescore dir holds records only: their
folders are the scored run's, found through `rescored_from` (or the rescore dir's parent when
the runs were moved since). A merged run holds every part's records and folders.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench.core.records import Record
from pytest_ponybench.store import results, runinfo

__all__ = ["NotARunDir", "SPEND", "Source", "load"]

SPEND = "spend.json"


class NotARunDir(Exception):
    """The path holds no results.jsonl."""


@dataclass
class Source:
    label: str
    path: Path
    run: dict[str, Any] = field(default_factory=dict)
    summary: dict[str, Any] = field(default_factory=dict)
    spend: dict[str, Any] = field(default_factory=dict)
    records: list[Record] = field(default_factory=list)

    @property
    def info(self) -> runinfo.RunInfo:
        """run.json, typed (`run` is the file as it is, shown whole)."""
        return runinfo.RunInfo.from_json(self.run)

    def cell_folder(self, rec: Record) -> Path | None:
        """The folder of this record's attempt, when it was kept."""
        cell_id = str(rec.get("cell_id") or "")
        if not cell_id or "/" in cell_id or cell_id in (".", ".."):
            return None
        roots = [self.path]
        if rec.get("rescored_from"):
            roots = [self.path.parent, Path(str(rec["rescored_from"]))]
        for root in roots:
            cells = root / "cells"
            earlier = cells / f"{cell_id}~{rec.get('attempt')}"
            for folder in (earlier, cells / cell_id):
                if folder.is_dir():
                    return folder
        return None


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def load(path: Path, label: str = "") -> Source:
    """Read a run dir; raises NotARunDir when it has no results.jsonl."""
    if not (path / results.RESULTS).is_file():
        raise NotARunDir(f"{path}: no {results.RESULTS} in it, so not a run dir")
    return Source(
        label=label or path.name,
        path=path,
        run=runinfo.shown(path),
        summary=_json(path / results.SUMMARY),
        spend=_json(path / SPEND),
        records=results.read_records(path / results.RESULTS),
    )
