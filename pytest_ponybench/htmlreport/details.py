"""One cell's details as the report's cell view shows them: the record, the failed checks, what
of the arm failed in the session, the transcript, the workspace diff and, for an invalid cell,
the stderr tail.

Kept apart from the page so that worker processes can build details for a large run without
importing the plotting library. Every value is plain JSON; the page shows each string as text.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from pytest_ponybench._util import textfiles
from pytest_ponybench._util.textfiles import clean
from pytest_ponybench.agents import registry
from pytest_ponybench.core.armhealth import from_record
from pytest_ponybench.core.graders.cell import outcomes_of
from pytest_ponybench.core.graders.outcome import GraderOutcome
from pytest_ponybench.core.records import FIELDS, Record, is_valid, passed
from pytest_ponybench.core.records import number as record_number
from pytest_ponybench.gateway import log as gateway_log
from pytest_ponybench.htmlreport import transcript
from pytest_ponybench.scoring import diff
from pytest_ponybench.scoring.checks import check_name
from pytest_ponybench.store.celldir import CellDir

__all__ = [
    "Bases",
    "EXPECTED_KEY",
    "Job",
    "PART_BYTES",
    "arm_error_items",
    "REASON_CHARS",
    "REPORT_KEYS",
    "SOURCE_KEY",
    "STDERR_TAIL_BYTES",
    "cell_detail",
    "main",
    "outcome",
    "policy_items",
    "reason",
    "write_parts",
]

STDERR_TAIL_BYTES = 16_000
# Cells are written in parts of about this size: one file per cell would make a 5,000-cell run
# spend most of its build creating files, while a part still loads in milliseconds.
PART_BYTES = 256_000
SOURCE_KEY: Final = "report_source"  # which run a record came from, in a two-run report
# Why the cell must fail (its offline agent's intended failure, summary.json's
# expected_failures), on the records of such cells only.
EXPECTED_KEY: Final = "report_expected"
REPORT_KEYS = (SOURCE_KEY, EXPECTED_KEY)  # the report's own keys, never shown as the record's
REASON_CHARS = 300  # a reason as the table and the cell view show it


def outcome(rec: Record) -> str:
    """passed, failed, invalid, or xfailed: a cell that failed as its offline agent intends (a
    strict xfail in the run, which the terminal counts as xfailed)."""
    if not is_valid(rec):
        return "invalid"
    if passed(rec):
        return "failed" if rec.get(EXPECTED_KEY) else "passed"  # a strict xfail that passed
    return "xfailed" if rec.get(EXPECTED_KEY) else "failed"


def _check_reason(rec: Record, text: str) -> str:
    """A reason as the check's name and its message's first line. Records written before the
    name was cut right lost its head (`]: AssertionError: ...` for a parameter holding `/`):
    the failed check whose message the reason quotes gives it back."""
    for check in rec.get("checks") or []:
        if not isinstance(check, dict) or check.get("outcome") == "passed":
            continue
        message = " ".join(str(check.get("message") or "").split())
        at = text.find(message[:60]) if message else -1
        name = f"{check_name(str(check.get('nodeid')))}: "
        if at > 0 and text[:at] != name and name.endswith(text[:at]):
            return name + text[at:]
    return text


def reason(rec: Record) -> str:
    """Why the cell did not pass, in one line: the check's name and its message's first line,
    a grader's explanation or the session's error, as a quote that keeps its ends."""
    if not is_valid(rec):
        return textfiles.quote(str(rec.get("error") or "invalid"), REASON_CHARS)
    text = _check_reason(rec, str(rec.get("reason") or ""))
    if passed(rec) and rec.get(EXPECTED_KEY):
        text = f"passed, but {rec[EXPECTED_KEY]}: the instrument is broken"
    return textfiles.quote(text, REASON_CHARS)


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
    kept = CellDir(folder).prompt
    if kept.is_file():
        return kept.read_text(encoding="utf-8", errors="replace")
    log = CellDir(folder).requests
    if log.is_file():
        with open(log, encoding="utf-8", errors="replace") as fh:
            return transcript.prompt_from_requests(fh.readline())
    return None


class Bases:
    """The seeded base of every workspace, read from git at most once per task and manifest.

    Cells of one task seeded alike (seeded.json holds each file's sha256) share one base
    commit's content; a cell without a manifest is read on its own."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, bytes], dict[str, bytes]] = {}

    def diff(self, folder: Path, task: str) -> str:
        workspace = CellDir(folder).workspace
        try:
            manifest = CellDir(folder).seeded.read_bytes()
            seeded = json.loads(manifest)
        except (OSError, ValueError):
            manifest, seeded = b"", None
        if not isinstance(seeded, dict):
            manifest, seeded = b"", None
        key = (task, manifest)

        def base() -> dict[str, bytes]:
            if key[1] and key in self._seen:
                return self._seen[key]
            kept = CellDir(folder).base_git
            files = diff.base_files(workspace, kept if kept.is_dir() else None)
            if key[1]:
                self._seen[key] = files
            return files

        try:
            return diff.workspace_diff(workspace, base, seeded)
        except diff.BaseUnreadable as exc:
            return f"# no diff: {exc}\n"


def cell_detail(
    rec: Record, folder: Path | None, prompts: dict[str, str | None], bases: Bases, out_dir: Path
) -> dict[str, Any]:
    task = str(rec.get("task"))
    checks = rec.get("checks") if isinstance(rec.get("checks"), list) else []
    assert isinstance(checks, list)
    detail = _frame(rec, task)
    detail.update(
        # An invalid cell's checks ran on whatever was left and count for nothing: not shown.
        failed=[c for c in checks if isinstance(c, dict) and c.get("outcome") != "passed" and is_valid(rec)],
        graders=[_grader(o) for o in outcomes_of(rec)] if is_valid(rec) else [],
        score=record_number(rec.get("score")),
        policy=policy_items(rec),
        arm_errors=arm_error_items(rec),
        record=[[k, v, FIELDS.get(k, "")] for k, v in rec.items() if k not in REPORT_KEYS],
        turns=turn_rows(rec),
        mocks_uncalled=[
            f"{m.get('tool')} (grader {m.get('grader')})"
            for m in rec.get("mocks_uncalled") or []
            if isinstance(m, dict)
        ],
    )
    if folder is None:
        detail["note"] = "the cell's folder was not kept (or lies outside this run dir)"
        return detail
    detail["folder"] = quote(os.path.relpath(folder, out_dir)) + "/"
    if task not in prompts:
        prompts[task] = _prompt(folder)
    cli = registry.of_record(rec.get("agent"))
    stream = CellDir(folder).path / cli.stream_file
    seen = cli.parse(stream)
    plays = [e for e in rec.get("conversation") or [] if isinstance(e, dict)]
    if len(plays) > 1:  # a conversation: each session's items after its turn's message
        for entry in plays:
            turn, n = int(entry.get("turn", 1)), int(entry.get("play", 1))
            where = CellDir(folder).play(turn, n)
            title = f"turn {turn}" + (f", play {n}" if n > 1 else "")
            detail["transcript"] += [{"kind": "prompt", "title": title, "text": str(entry.get("prompt", ""))}]
            detail["transcript"] += transcript.items_of(cli.parse(where.path / cli.stream_file), cli.dialect)
        seen = cli.parse(
            CellDir(folder).play(int(plays[-1].get("turn", 1)), int(plays[-1].get("play", 1))).path
            / cli.stream_file
        )
    elif stream.is_file():
        detail["transcript"] = transcript.items_of(seen, cli.dialect, prompts[task])
    else:
        detail["note"] = f"no {cli.stream_file} in the cell's folder"
    detail["transcript"] += transcript.request_items(
        gateway_log.lines(CellDir(folder).gateway), seen.session_id
    )
    if not is_valid(rec) or rec.get("timed_out"):
        detail["stderr"] = _tail(CellDir(folder).stderr)
    if CellDir(folder).workspace.is_dir():
        detail["diff"] = bases.diff(folder, task)
    return detail


def arm_error_items(rec: Record) -> list[str]:
    """What of the cell's arm failed in its session, one line each (`arm_errors`)."""
    listed = rec.get("arm_errors")
    found = [from_record(e) for e in (listed if isinstance(listed, list) else [])]
    return [e.text() for e in found if e is not None]


def turn_rows(rec: Record) -> list[list[Any]]:
    """A conversation's turns, a row each: turn, play, reply, tool calls, tokens, dollars,
    seconds, and whether its `until` grader passed ([] for a session of one turn)."""
    rows: list[list[Any]] = []
    for e in rec.get("conversation") or []:
        if not isinstance(e, dict):
            continue
        tokens = sum(
            int(e.get(k) or 0)
            for k in ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")
        )
        until = e.get("until") if isinstance(e.get("until"), dict) else None
        rows.append(
            [
                e.get("turn"),
                e.get("play"),
                str(e.get("reply", "")),
                sum(v for v in (e.get("tool_uses") or {}).values() if isinstance(v, int)),
                tokens,
                e.get("cost_usd"),
                e.get("wall_s"),
                None
                if until is None
                else f"{until.get('grader')}: {'passed' if until.get('passed') else 'not passed'}",
            ]
        )
    return rows


def policy_items(rec: Record) -> list[list[Any]]:
    """The task's agent policy as the cell's session got it, key by key (none: empty)."""
    policy = rec.get("agent_policy")
    return [[str(k), v] for k, v in policy.items()] if isinstance(policy, dict) else []


def _grader(o: GraderOutcome) -> dict[str, Any]:
    state = {True: "passed", False: "failed", None: "undecided"}[o.passed]
    return {
        "name": o.name,
        "type": o.type,
        "axis": o.axis,
        "arm": o.arm,
        "state": state,
        "explanation": o.explanation,
    }


def _frame(rec: Record, task: str) -> dict[str, Any]:
    """A cell's detail with what its record alone says, and nothing read from its folder."""
    return {
        "id": str(rec.get("cell_id")),
        "task": task,
        "arm": str(rec.get("arm")),
        "model": str(rec.get("model")),
        "run": str(rec.get("run")),
        "outcome": outcome(rec),
        "reason": reason(rec),
        "error": rec.get("error"),
        "failed": [],
        "policy": [],
        "arm_errors": [],
        "record": [],
        "turns": [],
        "mocks_uncalled": [],
        "folder": None,
        "transcript": [],
        "diff": None,
        "note": "",
        "stderr": "",
    }


Job = tuple[int, Record, str | None]  # index, record, cell folder


def write_parts(jobs: Sequence[Job], page_dir: Path, folder: Path, prefix: str) -> dict[int, str]:
    """The details of these cells as scripts `p<prefix><N>.js` in folder, each one
    `ponybenchCells({"<index>": {...}, ...})` of about PART_BYTES; returns index -> part name."""
    prompts: dict[str, str | None] = {}
    bases = Bases()
    where: dict[int, str] = {}
    chunk: list[str] = []
    size = 0
    number = 0
    for index, rec, cell_folder in jobs:
        try:
            detail = cell_detail(rec, Path(cell_folder) if cell_folder else None, prompts, bases, page_dir)
        except Exception as exc:  # one cell that cannot be shown must not cost the run its report
            detail = _frame(rec, str(rec.get("task")))
            detail["note"] = f"this cell could not be shown: {type(exc).__name__}: {exc}"
        # Names and text from a workspace may hold bytes that are not UTF-8 (lone surrogates).
        text = json.dumps(clean(detail), ensure_ascii=False, separators=(",", ":"), default=str)
        if size and size + len(text) > PART_BYTES:
            _write_part(folder / f"p{prefix}{number}.js", chunk)
            number, chunk, size = number + 1, [], 0
        where[index] = f"{prefix}{number}"
        chunk.append(f'"{index}":{text}')
        size += len(text)
    if chunk:
        _write_part(folder / f"p{prefix}{number}.js", chunk)
    return where


def _write_part(path: Path, chunk: Sequence[str]) -> None:
    path.write_text("ponybenchCells({" + ",".join(chunk) + "});\n", encoding="utf-8")


def main() -> None:
    """A worker: {"page_dir", "folder", "prefix", "jobs"} as JSON on stdin; writes the parts and
    prints {index: part name} as JSON."""
    request = json.load(sys.stdin)
    jobs = [(int(i), rec, folder) for i, rec, folder in request["jobs"]]
    where = write_parts(jobs, Path(request["page_dir"]), Path(request["folder"]), str(request["prefix"]))
    json.dump(where, sys.stdout)


if __name__ == "__main__":
    main()
