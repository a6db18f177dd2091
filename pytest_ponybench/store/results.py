"""The run directory: provenance, append-only records, per-cell folders.

runs/<stamp>/
  run.json        provenance (written at start, completed at the end; store/runinfo.py)
  results.jsonl   one line per cell attempt, appended whole under a file lock
  summary.json    aggregated rows
  stopped.json    why no more cells start (a sequential run that decided)
  report.json     pytest-json-report output
  cells/<cell-id>/  one cell's folder (celldir.CellDir)
"""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_ponybench._util import textfiles
from pytest_ponybench.core.records import Record, loaded
from pytest_ponybench.store import runinfo
from pytest_ponybench.store.celldir import CellDir
from pytest_ponybench.store.runinfo import RUN_JSON, RunInfo

__all__ = [
    "REPORT",
    "STOPPED",
    "RESULTS",
    "RUN_JSON",
    "RunDir",
    "SUMMARY",
    "locked",
    "new_stamp",
    "now_iso",
    "read_records",
    "write_json",
]

RESULTS = "results.jsonl"
SUMMARY = "summary.json"
REPORT = "report.json"
# Written when the run decided it needs no more cells (--until-decided); every worker reads it
# before starting a cell.
STOPPED = "stopped.json"


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def new_stamp() -> str:
    return dt.datetime.now().strftime("%Y%m%d-%H%M%S")


def write_json(path: Path, data: Any) -> None:
    """Write whole or not at all: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2, sort_keys=False, default=str)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())  # a full disk fails here, before the old file is replaced
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive lock shared by every xdist worker writing into the run dir."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


class RunDir:
    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def results(self) -> Path:
        return self.path / RESULTS

    def cell_dir(self, cell_id: str) -> CellDir:
        return CellDir(self.path / "cells" / cell_id)

    def append(self, record: Record) -> None:
        """Append one record as one line in one write, under the lock, flushed to disk."""
        line = json.dumps(textfiles.clean(record), default=str, sort_keys=False) + "\n"
        with locked(self.path / ".lock"):
            self._repair_tail()
            fd = os.open(self.results, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, line.encode())
                os.fsync(fd)
            finally:
                os.close(fd)

    def _repair_tail(self) -> None:
        """A crash mid-write can leave a torn last line; end it so the next record stays whole."""
        if not self.results.exists() or self.results.stat().st_size == 0:
            return
        with open(self.results, "rb+") as fh:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                fh.write(b"\n")

    def records(self) -> list[Record]:
        return read_records(self.results)

    def info(self) -> RunInfo:
        """run.json, typed (store/runinfo.py): empty before it is written; RunInfoError when
        it cannot be read."""
        try:
            return runinfo.read(self.path)
        except FileNotFoundError:
            return RunInfo()

    def _write(self, info: RunInfo) -> None:
        write_json(self.path / RUN_JSON, info.to_json())

    def start(self, info: RunInfo) -> bool:
        """Write run.json once (the first writer wins; later workers keep it, and so does a
        resume); whether this call wrote it."""
        with locked(self.path / ".lock"):
            if (self.path / RUN_JSON).exists():
                return False
            self._write(replace(info, started=now_iso()))
            return True

    def update(self, **changes: Any) -> None:
        """Set fields of run.json (the controller's, mid-run), whole or not at all."""
        with locked(self.path / ".lock"):
            self._write(replace(self.info(), **changes))

    def stop(self, reason: str) -> None:
        """Tell every worker to start no more cells, and why."""
        write_json(self.path / STOPPED, {"reason": reason, "at": now_iso()})

    def stopped(self) -> str | None:
        """Why the run starts no more cells, or None."""
        try:
            data = json.loads((self.path / STOPPED).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return str(data.get("reason") or "stopped") if isinstance(data, dict) else "stopped"

    def finish(self, exitstatus: int, missing: list[str]) -> None:
        """How the session ended, and the cells that left no record; then the run's line in
        the out folder's history index (a rescore, whose folder is its run's, has none)."""
        with locked(self.path / ".lock"):
            info = replace(self.info(), exitstatus=exitstatus, missing=tuple(missing))
            self._write(replace(info, finished=now_iso()))
        if info.mode != "rescore":
            from pytest_ponybench.store import history  # it names this module's files

            try:
                history.join(self.path, self.records())
            except OSError:
                pass  # a full disk: the run is whole; `ponybench history` adds its line later


def read_records(path: Path) -> list[Record]:
    """Every whole record; a torn or garbled line (a crash mid-write) is skipped, never merged.

    Values are as written (a record of another version or edited by hand may hold anything
    under any key): readers go through records.number / records.flag, never trust them.
    """
    return [loaded(textfiles.clean(rec)) for rec in textfiles.read_jsonl(path).objects if "task" in rec]
