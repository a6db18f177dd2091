"""One cell's details as the report's cell view shows them: the record, the failed checks, the
transcript, the workspace diff and, for an invalid cell, the stderr tail.

Kept apart from the page so that worker processes can build details for a large run without
importing the plotting library. Every value is plain JSON; the page shows each string as text.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..records import FIELDS, is_valid, passed
from . import diff, transcript

STDERR_TAIL_BYTES = 16_000
SOURCE_KEY = "report_source"  # which run a record came from, in a two-run report


def outcome(rec: Mapping[str, Any]) -> str:
    if not is_valid(rec):
        return "invalid"
    return "passed" if passed(rec) else "failed"


def reason(rec: Mapping[str, Any]) -> str:
    if not is_valid(rec):
        return str(rec.get("error") or "invalid")
    return str(rec.get("reason") or "")


# --- one cell's script --------------------------------------------------------------------------


def _tail(path: Path) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - STDERR_TAIL_BYTES))
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _prompt(folder: Path) -> str | None:
    kept = folder / "prompt.md"
    if kept.is_file():
        return kept.read_text(encoding="utf-8", errors="replace")
    log = folder / "offline_requests.jsonl"
    if log.is_file():
        with open(log, encoding="utf-8", errors="replace") as fh:
            return transcript.prompt_from_requests(fh.readline())
    return None


class Bases:
    """The seeded base of every workspace, read from git once per distinct seeded.json."""

    def __init__(self) -> None:
        self._by_manifest: dict[bytes, dict[str, bytes] | str] = {}

    def get(self, folder: Path) -> dict[str, bytes] | str:
        try:
            key = (folder / "seeded.json").read_bytes()
        except OSError:
            key = b""
        if key and key in self._by_manifest:
            return self._by_manifest[key]
        try:
            base: dict[str, bytes] | str = diff.base_files(folder / "workspace")
        except diff.BaseUnreadable as exc:
            base = f"no diff: {exc}"
        if key:
            self._by_manifest[key] = base
        return base


def cell_detail(
    rec: Mapping[str, Any], folder: Path | None, prompts: dict[str, str | None], bases: Bases, out_dir: Path
) -> dict[str, Any]:
    task = str(rec.get("task"))
    checks = rec.get("checks") if isinstance(rec.get("checks"), list) else []
    assert isinstance(checks, list)
    detail: dict[str, Any] = {
        "id": str(rec.get("cell_id")),
        "task": task,
        "arm": str(rec.get("arm")),
        "model": str(rec.get("model")),
        "run": str(rec.get("run")),
        "outcome": outcome(rec),
        "reason": reason(rec),
        "error": rec.get("error"),
        "failed": [c for c in checks if isinstance(c, dict) and c.get("outcome") != "passed"],
        "record": [[k, v, FIELDS.get(k, "")] for k, v in rec.items() if k != SOURCE_KEY],
        "folder": None,
        "transcript": [],
        "diff": None,
        "note": "",
        "stderr": "",
    }
    if folder is None:
        detail["note"] = "the cell's folder was not kept (or lies outside this run dir)"
        return detail
    detail["folder"] = quote(os.path.relpath(folder, out_dir)) + "/"
    if task not in prompts:
        prompts[task] = _prompt(folder)
    stream = folder / "claude.jsonl"
    try:
        with open(stream, encoding="utf-8", errors="replace", newline="\n") as fh:
            detail["transcript"] = transcript.items_of(fh, prompts[task])
    except OSError:
        detail["note"] = "no claude.jsonl in the cell's folder"
    if not is_valid(rec) or rec.get("timed_out"):
        detail["stderr"] = _tail(folder / "claude.stderr")
    if (folder / "workspace").is_dir():
        base = bases.get(folder)
        detail["diff"] = base if isinstance(base, str) else diff.workspace_diff(folder / "workspace", base)
    return detail


Job = tuple[int, dict[str, Any], str | None]  # index, record, cell folder


def details_json(jobs: Sequence[Job], page_dir: str) -> list[tuple[int, str]]:
    """The details of some cells as JSON text, in order (what a worker process returns)."""
    prompts: dict[str, str | None] = {}
    bases = Bases()
    out = []
    for index, rec, folder in jobs:
        detail = cell_detail(rec, Path(folder) if folder else None, prompts, bases, Path(page_dir))
        out.append((index, json.dumps(detail, ensure_ascii=False, separators=(",", ":"), default=str)))
    return out


def main() -> None:
    """A worker: {"page_dir", "jobs"} as JSON on stdin, [[index, details JSON], ...] on stdout."""
    request = json.load(sys.stdin)
    jobs = [(int(i), rec, folder) for i, rec, folder in request["jobs"]]
    json.dump(details_json(jobs, request["page_dir"]), sys.stdout)


if __name__ == "__main__":
    main()
