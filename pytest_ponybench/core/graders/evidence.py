"""What graders read about a cell: the final reply, the assistant's text, the ordered tool calls
with their inputs, the workspace files and the seeded base they started from.

Built from the session's `Transcript` (its adapter parsed the stream once, with bounded time and
memory whatever the agent wrote: a stream line longer than `MAX_LINE_BYTES` is skipped and
counted, texts and tool inputs are cut at fixed sizes); files are read up to a size and a
count, without following symlinks. Everything here is agent-written text: it is only ever matched or
quoted, never run.

A path a tool call names is placed before any grader matches it (`CallPath`): made absolute
against the session's workspace, normalised (`.`, `..`, `//`, a trailing slash) and resolved
through the links inside the workspace, so `tests/./test_x.py`, `tests//test_x.py` and the
absolute path are one file, and a path outside the workspace is known to be outside.

The record keeps a smaller copy (`record_reply`, `record_tool_calls`): bounded like the first
view of the report's transcript and with credentials redacted.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pytest_ponybench._util.mockanswer import MISSING, value_at
from pytest_ponybench.core.bounded import MAX_DEPTH, REDACTED, bounded_value, cut, redact
from pytest_ponybench.core.bounded import parse_input as bounded_parse_input
from pytest_ponybench.core.mocks import MockCall
from pytest_ponybench.core.transcript import (
    INPUT_STRING_CHARS,
    MAX_LINE_BYTES,
    REPLY_CHARS,
    TRANSCRIPT_CHARS,
    ModelView,
    ToolCall,
    Transcript,
)

__all__ = [
    "CallPath",
    "CellEvidence",
    "Entry",
    "FILES_TOTAL_BYTES",
    "FILE_BYTES",
    "INPUT_STRING_CHARS",
    "MAX_CALLS",
    "MAX_DEPTH",
    "MAX_FILES",
    "MAX_LINE_BYTES",
    "MAX_LINKS",
    "MISSING",
    "MockCall",
    "PATH_KEYS",
    "RECORD_CALLS",
    "RECORD_REPLY_CHARS",
    "RECORD_STRING_CHARS",
    "REDACTED",
    "REPLY_CHARS",
    "ROOTED",
    "TOOL_PATH_KEYS",
    "TRANSCRIPT_CHARS",
    "ToolCall",
    "WorkspaceFiles",
    "as_text",
    "call_record",
    "mock_calls_of",
    "mock_record",
    "compile_glob",
    "glob_problem",
    "parse_input",
    "place",
    "redact",
    "value_at",
]

# What graders read (the transcript's bounds, and the calls read of it).
MAX_CALLS = 5_000
MAX_FILES = 5_000
FILE_BYTES = 1_000_000
FILES_TOTAL_BYTES = 32_000_000
# What the record keeps.
RECORD_REPLY_CHARS = 10_000
RECORD_CALLS = 300
RECORD_STRING_CHARS = 2_000

# Keys of a tool input that name a path: a relative one is the workspace's.
PATH_KEYS = ("file_path", "notebook_path", "path")
# The CLI's tools (their input schemas) -> the keys that name a path; Glob's `pattern` is a path
# too when it is absolute. An MCP tool's `path` may mean anything, and is matched as written.
TOOL_PATH_KEYS: dict[str, tuple[str, ...]] = {
    "Read": ("file_path",),
    "Write": ("file_path",),
    "Edit": ("file_path",),
    "MultiEdit": ("file_path",),
    "NotebookRead": ("notebook_path",),
    "NotebookEdit": ("notebook_path",),
    "Glob": ("path", "pattern"),
    "Grep": ("path",),
    "LS": ("path",),
}
# A path regex that starts so is matched against absolute paths only (outside ones included).
ROOTED = ("^/", "\\A/")
MAX_LINKS = 40  # links followed while placing one path, as the kernel's limit


def as_text(value: Any) -> str:
    """A JSON value as the text an input regex matches: strings as they are, the rest as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


# ---------------------------------------------------------------- paths of tool calls

_GLOB_CHARS = re.compile(r"[*?\[{]")


@dataclass(frozen=True)
class CallPath:
    """A path as a tool call gave it, placed: `absolute` normalised in the agent's view (links
    inside the workspace resolved), `relative` to the workspace (`.` for itself), None outside.
    `placed` is False when the session's workspace is not known (both forms are then the
    path as written, normalised, and nothing counts as outside)."""

    given: str
    absolute: str
    relative: str | None
    placed: bool = True

    def texts(self, pattern: str) -> tuple[str, ...]:
        """What a path regex is matched against: a rooted one (`^/...`) the absolute form; any
        other the workspace-relative form and the absolute one, of a path in the workspace."""
        if pattern.startswith(ROOTED):
            return (self.absolute,)
        if self.relative is None:
            return () if self.placed else (self.absolute,)
        return (self.relative, self.absolute)

    def shown(self) -> str:
        """The path for an explanation: as given, with its placed form when that differs."""
        placed = self.relative if self.relative is not None else self.absolute
        if self.given in (placed, self.absolute):
            return self.given
        return f"{self.given} (= {placed if self.relative is not None else placed + ', outside'})"


def _tidy(path: str) -> str:
    """`.`, `..`, `//` and a trailing slash taken out (POSIX keeps a leading `//`; not here)."""
    out = posixpath.normpath(path)
    return "/" + out.lstrip("/") if out.startswith("//") else out


def _within(path: str, root: str) -> str | None:
    """path relative to root (`.` for root itself), or None when it lies outside."""
    if path == root:
        return "."
    if root == "/":
        return path[1:]
    return path[len(root) + 1 :] if path.startswith(root + "/") else None


def _follow(rel: str, view: str, disk: Path) -> tuple[str | None, str]:
    """(relative, absolute) of rel once the links inside the workspace are followed; disk is
    where the workspace lies now (the kept copy on a rescore), view where the agent saw it."""
    todo = [] if rel == "." else rel.split("/")
    done: list[str] = []
    hops = 0
    while todo:
        part = todo.pop(0)
        try:
            link = os.readlink(os.path.join(disk, *done, part))
        except OSError:  # not a link, or not there: the rest is as written
            done.append(part)
            continue
        hops += 1
        if hops > MAX_LINKS:  # a loop: the path stays as written
            done += [part, *todo]
            break
        target = _tidy(posixpath.join(view, *done, link))
        inner = _within(target, view)
        if inner is None and str(disk) != view:
            inner = _within(target, _tidy(str(disk)))  # a link written with the kept copy's path
        if inner is None:
            return None, _tidy(posixpath.join(target, *todo))
        todo = ([] if inner == "." else inner.split("/")) + todo
        done = []
    relative = "/".join(done) or "."
    return relative, view if relative == "." else posixpath.join(view, relative)


def place(given: str, view: str | None, disk: Path | None = None) -> CallPath:
    """A path a tool call names, placed in the agent's workspace (view: its path as the agent
    saw it; disk: where it is now, to follow links; None: not known)."""
    if given.startswith("~"):  # the CLI expands ~ to a home folder, never the workspace
        return CallPath(given, _tidy(given), None, placed=view is not None)
    if view is None:
        tidy = _tidy(given)
        outside = tidy.startswith("/") or tidy == ".." or tidy.startswith("../")
        return CallPath(given, tidy, None if outside else tidy, placed=False)
    view = _tidy(view)
    absolute = _tidy(posixpath.join(view, given))
    relative = _within(absolute, view)
    if relative is not None and disk is not None:
        relative, absolute = _follow(relative, view, disk)
    return CallPath(given, absolute, relative)


def _place_glob(pattern: str, view: str | None, disk: Path | None) -> CallPath:
    """Glob's pattern: an absolute one is placed like a path (its literal leading folders); a
    relative one stays relative to the call's `path`, tidied (`./`, `//`)."""
    parts = pattern.split("/")
    cut = next((n for n, p in enumerate(parts) if _GLOB_CHARS.search(p)), len(parts))
    literal, rest = "/".join(parts[:cut]), "/".join(p for p in parts[cut:] if p)
    if not pattern.startswith("/"):
        tidy = "/".join(p for p in pattern.split("/") if p not in ("", "."))
        return CallPath(pattern, tidy or ".", tidy or ".", placed=view is not None)
    root = place(literal or "/", view, disk)

    def joined(head: str | None) -> str | None:
        if head is None:
            return None
        return rest if head == "." and rest else (posixpath.join(head, rest) if rest else head)

    return CallPath(pattern, joined(root.absolute) or pattern, joined(root.relative), root.placed)


def call_record(call: ToolCall) -> dict[str, Any]:
    """One tool call bounded and redacted, as the record keeps it."""
    out: dict[str, Any] = {"tool": call.tool}
    if call.input is not None:
        out["input"] = bounded_value(dict(call.input), RECORD_STRING_CHARS, redacting=True)
    else:
        out["input"] = None
        out["raw"] = redact(cut(call.raw, RECORD_STRING_CHARS))
    if call.subagent:
        out["subagent"] = True
    if call.is_error:
        out["is_error"] = True
    return out


def mock_calls_of(calls: Sequence[ToolCall], mocked: frozenset[str], turn: int = 1) -> tuple[MockCall, ...]:
    """The calls of mocked tools among a session's calls, with what came back."""
    return tuple(
        MockCall(c.tool, c.input, c.result, bool(c.is_error), turn) for c in calls if c.tool in mocked
    )


def mock_record(call: MockCall) -> dict[str, Any]:
    """One mock call as the record keeps it: bounded, credentials redacted."""
    out: dict[str, Any] = {
        "name": call.name,
        "input": bounded_value(dict(call.input), RECORD_STRING_CHARS, redacting=True)
        if call.input is not None
        else None,
        "response": None if call.response is None else redact(cut(call.response, RECORD_STRING_CHARS)),
        "verdict": call.verdict,
    }
    if call.turn != 1:
        out["turn"] = call.turn
    return out


def parse_input(value: Any) -> tuple[Mapping[str, Any] | None, str]:
    """A tool input as the transcript holds it (`core.bounded.parse_input` at its bound)."""
    return bounded_parse_input(value, INPUT_STRING_CHARS)


# ---------------------------------------------------------------- workspace files

_GLOB_TOKEN = re.compile(r"\*\*/|\*\*|\*|\?|\[!?[^/\]]*\]|[^*?\[]+|\[")


def compile_glob(pattern: str) -> re.Pattern[str]:
    """A workspace glob as a regex over POSIX relative paths: `*` and `?` stay inside one folder,
    `**/` spans any number of folders (none included), `[abc]` and `[!abc]` are classes."""
    pattern = pattern.removeprefix("./")
    out: list[str] = []
    for token in _GLOB_TOKEN.findall(pattern):
        if token == "**/":
            out.append("(?:.*/)?")
        elif token == "**":
            out.append(".*")
        elif token == "*":
            out.append("[^/]*")
        elif token == "?":
            out.append("[^/]")
        elif token.startswith("[") and token.endswith("]") and len(token) > 2:
            body = token[1:-1]
            negate = body.startswith("!")
            body = body[1:] if negate else body
            out.append("[" + ("^" if negate else "") + body.replace("\\", "\\\\") + "]")
        else:
            out.append(re.escape(token))
    return re.compile("".join(out), re.DOTALL)


def glob_problem(pattern: object) -> str | None:
    """Why a value is not a usable workspace glob, or None."""
    if not isinstance(pattern, str) or not pattern.strip():
        return "must be a non-empty glob relative to the workspace"
    if pattern.startswith("/") or ".." in pattern.split("/"):
        return f"{pattern!r} must stay inside the workspace (relative, no '..')"
    return None


@dataclass(frozen=True)
class Entry:
    path: str  # POSIX, relative to the workspace
    kind: str  # file | dir | link | other


class WorkspaceFiles:
    """The files of a workspace, listed once, read without following symlinks, bounded.

    The top `.git` (the harness's base snapshot) is not part of what the agent delivered.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._entries: list[Entry] | None = None
        self.truncated = False

    def entries(self) -> list[Entry]:
        if self._entries is None:
            self._entries = self._walk()
        return self._entries

    def _walk(self) -> list[Entry]:
        found: list[Entry] = []
        todo = [(str(self.root), "")]
        while todo:
            folder, prefix = todo.pop()
            try:
                with os.scandir(folder) as it:
                    listed = sorted(it, key=lambda e: e.name)
            except OSError:
                continue
            for entry in listed:
                rel = prefix + entry.name
                if len(found) >= MAX_FILES:
                    self.truncated = True
                    return sorted(found, key=lambda e: e.path)
                try:
                    mode = entry.stat(follow_symlinks=False).st_mode
                except OSError:
                    continue
                if stat.S_ISDIR(mode):
                    if rel == ".git":
                        continue
                    found.append(Entry(rel, "dir"))
                    todo.append((entry.path, rel + "/"))
                elif stat.S_ISLNK(mode):
                    found.append(Entry(rel, "link"))
                elif stat.S_ISREG(mode):
                    found.append(Entry(rel, "file"))
                else:
                    found.append(Entry(rel, "other"))
        return sorted(found, key=lambda e: e.path)

    def matching(self, pattern: str) -> list[Entry]:
        regex = compile_glob(pattern)
        return [e for e in self.entries() if regex.fullmatch(e.path)]

    def read(self, rel: str, limit: int = FILE_BYTES) -> bytes | None:
        """A regular file's first `limit` bytes; None for a link, a folder or what cannot be read."""
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        try:
            fd = os.open(self.root / rel, flags)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            with os.fdopen(fd, "rb", closefd=False) as fh:
                return fh.read(limit)
        except OSError:
            return None
        finally:
            os.close(fd)

    def texts(self, pattern: str) -> Iterator[tuple[str, str]]:
        """(path, text) of each regular file matching pattern, as UTF-8 with replacement, within
        the total budget `FILES_TOTAL_BYTES`."""
        budget = FILES_TOTAL_BYTES
        for entry in self.matching(pattern):
            if entry.kind != "file" or budget <= 0:
                continue
            data = self.read(entry.path, min(FILE_BYTES, budget))
            if data is None:
                continue
            budget -= len(data)
            yield entry.path, data.decode("utf-8", "replace")


# ---------------------------------------------------------------- the evidence


@dataclass(frozen=True)
class CellEvidence:
    """Everything a grader may read about one cell (or one reference)."""

    reply: str = ""
    transcript: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    workspace: WorkspaceFiles | None = None
    prompt: str = ""  # the task's prompt, for a judge's context
    diff: Callable[[], str] | None = field(default=None, compare=False)  # the workspace diff, on demand
    notes: tuple[str, ...] = ()  # what was cut or skipped while reading
    # The workspace's path as the agent saw it (the stream's init event); None: workspace.root.
    cwd: str | None = None
    # What reached the model and what it answered, as the gateway saw them (every session of
    # the cell: a hook's context and side calls included).
    model_input: str = ""
    model_output: str = ""
    # The seeded base the harness kept (path -> (mode, content) as git holds it), on demand;
    # None: there is none to compare with (graders that need it cannot decide).
    base: Callable[[], Mapping[str, tuple[str, bytes]]] | None = field(default=None, compare=False)
    # The calls of the task's mocked MCP tools, with what each stand-in answered.
    mock_calls: tuple[MockCall, ...] = ()
    # A conversation's turns, each its own evidence (its reply, text, calls and what the gateway
    # saw of it; the workspace as the conversation left it); () for a session of one turn.
    turns: tuple[CellEvidence, ...] = field(default=(), compare=False, repr=False)
    _placed: dict[tuple[int, str], CallPath | None] = field(
        default_factory=dict, compare=False, repr=False, init=False
    )

    def of_turn(self, turn: int) -> CellEvidence:
        """What one turn said and did (a session of one turn is its own turn 1); a turn that was
        never played said nothing and made no call."""
        if not self.turns:
            return self if turn == 1 else self._silent(())
        if turn - 1 < len(self.turns):
            return self.turns[turn - 1]
        return self.turns[0]._silent((f"turn {turn} was never played",))

    def _silent(self, notes: tuple[str, ...]) -> CellEvidence:
        """This evidence's workspace with nothing said, called or seen by the model."""
        return replace(
            self,
            reply="",
            transcript="",
            tool_calls=(),
            mock_calls=(),
            model_input="",
            model_output="",
            notes=notes,
        )

    @property
    def mock_tool_calls(self) -> tuple[ToolCall, ...]:
        """The mock calls as tool calls (what a tool grader with `target = "mock_calls"` reads)."""
        return tuple(
            ToolCall(n, c.name, c.input, result=c.response, is_error=c.is_error)
            for n, c in enumerate(self.mock_calls)
        )

    def calls(self, target: str) -> tuple[ToolCall, ...]:
        """The calls a tool grader reads: every tool call, or only the mocked tools' calls."""
        return self.mock_tool_calls if target == "mock_calls" else self.tool_calls

    @property
    def mock_text(self) -> str:
        """The mock calls as a regex reads them: one JSON line each, in CPE's form."""
        return "\n".join(c.as_line() for c in self.mock_calls)

    def call_path(self, call: ToolCall, key: str) -> CallPath | None:
        """The path the call's input gives under key, placed in the workspace; None when key is
        not a path of that tool (TOOL_PATH_KEYS) or its value is not a string."""
        if key not in TOOL_PATH_KEYS.get(call.tool, ()) or call.input is None:
            return None
        memo = (call.index, key)
        if memo not in self._placed:
            value = call.input.get(key)
            view = self.cwd or (str(self.workspace.root) if self.workspace is not None else None)
            disk = self.workspace.root if self.workspace is not None else None
            placed: CallPath | None = None
            if isinstance(value, str) and value:
                if key == "pattern":
                    placed = _place_glob(value, view, disk)
                else:
                    placed = place(value, view, disk)
            self._placed[memo] = placed
        return self._placed[memo]

    @classmethod
    def from_transcript(
        cls,
        transcript: Transcript,
        workspace: Path | None = None,
        *,
        prompt: str = "",
        diff: Callable[[], str] | None = None,
        base: Callable[[], Mapping[str, tuple[str, bytes]]] | None = None,
        view: ModelView | None = None,
        mocked: frozenset[str] = frozenset(),
        turns: Sequence[tuple[Transcript, ModelView | None]] = (),
        turn: int = 1,
    ) -> CellEvidence:
        """Evidence from a session's transcript, what the gateway saw of it, and its workspace;
        `mocked` names the task's mocked tools; `turns` are a conversation's turns, each with
        what the gateway saw of it (`transcript` and `view` are then the whole conversation's)."""
        notes = list(transcript.notes)
        calls = transcript.tool_calls
        if len(calls) > MAX_CALLS:
            notes.append(f"{len(calls) - MAX_CALLS} tool calls after the first {MAX_CALLS} were not read")
            calls = calls[:MAX_CALLS]
        parts = tuple(
            cls.from_transcript(
                t, workspace, prompt=prompt, diff=diff, base=base, view=v, mocked=mocked, turn=n
            )
            for n, (t, v) in enumerate(turns, 1)
        )
        return cls(
            reply=transcript.reply,
            transcript=transcript.text,
            tool_calls=tuple(calls),
            workspace=parts[0].workspace
            if parts
            else WorkspaceFiles(workspace)
            if workspace is not None
            else None,
            prompt=prompt,
            diff=diff,
            notes=tuple(notes),
            cwd=transcript.cwd,
            base=base,
            model_input=view.input if view is not None else "",
            model_output=view.output if view is not None else "",
            mock_calls=tuple(c for p in parts for c in p.mock_calls)
            if parts
            else mock_calls_of(calls, mocked, turn),
            turns=parts,
        )

    def record_mock_calls(self) -> list[dict[str, Any]]:
        """The mock calls as the record keeps them (name, input, response), bounded and redacted."""
        return [mock_record(c) for c in self.mock_calls[:RECORD_CALLS]]

    def record_reply(self) -> str:
        """The reply as the record keeps it: bounded, credentials redacted."""
        return redact(cut(self.reply, RECORD_REPLY_CHARS))

    def record_tool_calls(self) -> list[dict[str, Any]]:
        """The tool calls as the record keeps them: the first RECORD_CALLS, each input's strings
        cut at RECORD_STRING_CHARS, credentials redacted; a last entry counts the rest."""
        out = [call_record(c) for c in self.tool_calls[:RECORD_CALLS]]
        if len(self.tool_calls) > RECORD_CALLS:
            out.append({"tool": None, "cut": len(self.tool_calls) - RECORD_CALLS})
        return out
