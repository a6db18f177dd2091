"""The deterministic graders: regex over the reply, the transcript or files; tool calls used,
absent or in order; files that exist or must not; files left as the seeded base had them.

A tool grader counts the calls that succeeded (the CLI ran them and gave no error back: a
`Skill` call of a skill the session does not have comes back `Unknown skill: ...` and invoked
nothing); `count = "attempts"` counts every call, failed ones included. Its explanation says
which it counted and names the failed calls it left out.

A path regex of a tool call reads the path placed (`evidence.CallPath`): `tests/./x.py`,
`./tests/x.py` and the absolute path are one file, and a path outside the workspace is seen
only by a regex rooted at `/`.

Pure functions of the evidence: no process, no network, the same answer every time. Each
explanation says what was found and where (excerpts cut and redacted), so a failed grader reads
like a failed check.
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pytest_ponybench._util import textfiles
from pytest_ponybench.core.graders.evidence import (
    MISSING,
    PATH_KEYS,
    CellEvidence,
    ToolCall,
    WorkspaceFiles,
    as_text,
    compile_glob,
    glob_problem,
    redact,
    value_at,
)
from pytest_ponybench.core.graders.outcome import Common, GradeContext, Grader, GraderOutcome
from pytest_ponybench.core.graders.registry import GraderType, Parse
from pytest_ponybench.core.graders.table import Table, bounds

__all__ = [
    "CALL_TARGETS",
    "COUNTS",
    "CallMatch",
    "EXCERPT",
    "FLAGS",
    "FileAbsentGrader",
    "FileExistsGrader",
    "FilesUnchangedGrader",
    "GRADER_TYPES",
    "INPUT_KEYS",
    "InputMatch",
    "LISTED",
    "MODES",
    "RegexGrader",
    "STEP_KEYS",
    "TARGETS",
    "ToolAbsentGrader",
    "ToolOrderGrader",
    "ToolUsedGrader",
    "call_text",
]

# What a regex reads: the final reply, all the assistant's text, workspace files, and what the
# model gateway saw: every text that reached the model (a hook's context among them) and every
# text and tool call the model answered.
TARGETS = ("reply", "transcript", "files", "model_input", "model_output", "mock_calls")
# What a tool grader reads: every tool call, or only the calls of the task's mocked MCP tools
# (with what the stand-in answered).
CALL_TARGETS = ("tool_calls", "mock_calls")
_CALL_QUIET = {"turn": None, "target": "tool_calls"}
MODES = ("contains", "not_contains", "count")
FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}
EXCERPT = 80  # characters of a match shown in an explanation
LISTED = 5  # calls or files named in an explanation
# What a tool grader counts: the calls that succeeded (the default), or every attempt.
COUNTS = ("succeeded", "attempts")


def _excerpt(text: str, start: int, end: int) -> str:
    lo, hi = max(0, start - 20), min(len(text), max(end, start + 1) + 20)
    piece = text[lo:hi]
    if len(piece) > EXCERPT:
        piece = piece[:EXCERPT] + "..."
    return repr(redact(piece))


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


@dataclass(frozen=True, kw_only=True)
class InputMatch:
    """A tool call's input value at a dotted JSON path must match a regex (as text); a path the
    call names (TOOL_PATH_KEYS) is matched placed, never as the agent spelled it."""

    path: str
    regex: re.Pattern[str]

    def matches(self, call: ToolCall, evidence: CellEvidence) -> bool:
        if call.input is None:
            return False
        placed = evidence.call_path(call, self.path)
        if placed is not None:
            return any(self.regex.search(t) for t in placed.texts(self.regex.pattern))
        value = value_at(call.input, self.path)
        return value is not MISSING and self.regex.search(as_text(value)) is not None

    def describe(self) -> dict[str, Any]:
        return {"path": self.path, "regex": self.regex.pattern}

    def text(self) -> str:
        return f"{self.path} ~ {self.regex.pattern!r}"


@dataclass(frozen=True, kw_only=True)
class CallMatch:
    """Which tool calls count: a tool name or fnmatch glob (any of several), and an input match."""

    tools: tuple[str, ...]
    input: InputMatch | None = None

    def matches(self, call: ToolCall, evidence: CellEvidence) -> bool:
        if not any(fnmatch.fnmatchcase(call.tool, t) for t in self.tools):
            return False
        return self.input is None or self.input.matches(call, evidence)

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tool": self.tools[0] if len(self.tools) == 1 else list(self.tools)}
        if self.input is not None:
            out["input"] = self.input.describe()
        return out

    def text(self) -> str:
        what = "|".join(self.tools)
        return what + (f" with {self.input.text()}" if self.input is not None else "")

    def unparsed(self, calls: tuple[ToolCall, ...]) -> int:
        """Calls of a wanted tool whose input did not parse (an input match cannot see them)."""
        if self.input is None:
            return 0
        return sum(
            1 for c in calls if c.input is None and any(fnmatch.fnmatchcase(c.tool, t) for t in self.tools)
        )


def call_text(call: ToolCall, evidence: CellEvidence | None = None) -> str:
    """`#3 Read /ws/app.py` (a subagent's call marked; a path written oddly with its placed
    form: `tests/./x.py (= tests/x.py)`), for explanations."""
    shown = ""
    if call.input is not None:
        for key in (*PATH_KEYS, "pattern", "skill", "command"):
            value = call.input.get(key)
            if isinstance(value, str) and value:
                placed = evidence.call_path(call, key) if evidence is not None else None
                shown = placed.shown() if placed is not None else value
                break
    else:
        shown = "(input did not parse)"
    shown = redact(shown if len(shown) <= 2 * EXCERPT else shown[: 2 * EXCERPT] + "...")
    return (
        f"#{call.index} {call.tool}"
        + (f" {shown}" if shown else "")
        + (" [subagent]" if call.subagent else "")
    )


def _unparsed_note(match: CallMatch, evidence: CellEvidence) -> str:
    n = match.unparsed(evidence.tool_calls)
    return f"; {n} call(s) of {'|'.join(match.tools)} had an input that did not parse" if n else ""


def _counts(call: ToolCall, count: str) -> bool:
    return count == "attempts" or call.succeeded


def _noun(count: str, plural: bool = True) -> str:
    """How a tool grader's explanation names the calls it counts."""
    return ("" if count == "attempts" else "successful ") + ("call(s)" if plural else "call")


def _attempts(count: str) -> str:
    return " (attempts: failed calls counted)" if count == "attempts" else ""


def _failed_note(matches: list[ToolCall], count: str, evidence: CellEvidence) -> str:
    """The matching calls a grader left out (they failed, or no result came back), named with
    what the CLI answered."""
    left = [c for c in matches if not _counts(c, count)]
    if not left:
        return ""
    named = []
    for call in left[:LISTED]:
        said = textfiles.quote(call.result or "", EXCERPT) if call.result else "no result"
        named.append(f"{call_text(call, evidence)} ({redact(said)})")
    more = " ..." if len(left) > LISTED else ""
    return f"; {len(left)} failed call(s) not counted: {', '.join(named)}{more}"


def _bounds_ok(n: int, lo: int | None, hi: int | None) -> bool:
    return (lo is None or n >= lo) and (hi is None or n <= hi)


def _bounds_text(lo: int | None, hi: int | None) -> str:
    parts = ([f"min {lo}"] if lo is not None else []) + ([f"max {hi}"] if hi is not None else [])
    return ", ".join(parts)


@dataclass(frozen=True, kw_only=True)
class RegexGrader(Common):
    type: str = field(default="regex", init=False)
    target: str = "reply"
    pattern: re.Pattern[str]
    mode: str = "contains"
    min: int | None = None
    max: int | None = None
    glob: str = "**/*"

    def _texts(self, evidence: CellEvidence) -> Iterator[tuple[str, str]]:
        if self.target == "reply":
            yield "reply", evidence.reply
        elif self.target == "transcript":
            yield "transcript", evidence.transcript
        elif self.target in ("model_input", "model_output"):
            yield self.target.replace("_", " "), getattr(evidence, self.target)
        elif self.target == "mock_calls":
            yield "mock calls", evidence.mock_text
        elif evidence.workspace is not None:
            yield from evidence.workspace.texts(self.glob)

    def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
        if self.target == "files" and evidence.workspace is None:
            return self.outcome(None, "no workspace to read", error="no workspace to read")
        where = self.target if self.target != "files" else f"files {self.glob!r}"
        seen = 0
        count = 0
        first: str | None = None
        for label, text in self._texts(evidence):
            seen += 1
            if self.mode == "count":
                for m in self.pattern.finditer(text):
                    count += 1
                    if first is None:
                        first = self._at(label, text, m)
                continue
            found = self.pattern.search(text)
            if found is not None:
                first = self._at(label, text, found)
                break
        pat = repr(self.pattern.pattern)
        empty = ""
        if self.target == "files" and seen == 0:
            empty = f" (no file matches {self.glob!r})"
        elif self.target == "mock_calls" and not evidence.mock_calls:
            empty = " (no mocked tool was called)"
        elif self.target != "files" and not getattr(evidence, self.target):
            empty = f" (the {self.target} is empty)"
        if self.mode == "count":
            ok = _bounds_ok(count, self.min, self.max)
            at = f"; first {first}" if first else ""
            text = f"{count} match(es) of {pat} in {where}{empty} ({_bounds_text(self.min, self.max)}){at}"
            return self.outcome(ok, text)
        if self.mode == "contains":
            if first is not None:
                return self.outcome(True, f"{where} contains {pat}: {first}")
            return self.outcome(False, f"{where} does not contain {pat}{empty}")
        if first is not None:
            return self.outcome(False, f"{where} contains {pat}, which it must not: {first}")
        return self.outcome(True, f"{where} does not contain {pat}{empty}")

    @staticmethod
    def _at(label: str, text: str, m: re.Match[str]) -> str:
        if label in ("reply", "transcript"):
            return f"at character {m.start()}: {_excerpt(text, m.start(), m.end())}"
        return f"in {label} line {_line_of(text, m.start())}: {_excerpt(text, m.start(), m.end())}"


@dataclass(frozen=True, kw_only=True)
class _OverCalls(Common):
    """A grader over the session's tool calls (`target`), counting the successful ones or every
    attempt (`count`)."""

    count: str = "succeeded"
    target: str = "tool_calls"
    QUIET: ClassVar[Mapping[str, Any]] = _CALL_QUIET

    def _counted(self, evidence: CellEvidence) -> tuple[ToolCall, ...]:
        return tuple(c for c in evidence.calls(self.target) if _counts(c, self.count))

    def _matching(self, match: CallMatch, evidence: CellEvidence) -> tuple[list[ToolCall], list[ToolCall]]:
        """The calls `match` matches, and those of them that count."""
        matches = [c for c in evidence.calls(self.target) if match.matches(c, evidence)]
        return matches, [c for c in matches if _counts(c, self.count)]


@dataclass(frozen=True, kw_only=True)
class ToolUsedGrader(_OverCalls):
    type: str = field(default="tool_used", init=False)
    match: CallMatch
    min: int = 1
    max: int | None = None

    def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
        matches, found = self._matching(self.match, evidence)
        ok = _bounds_ok(len(found), self.min, self.max)
        listed = ", ".join(call_text(c, evidence) for c in found[:LISTED]) + (
            " ..." if len(found) > LISTED else ""
        )
        bounds_text = _bounds_text(self.min, self.max) + (
            "; attempts: failed calls counted" if self.count == "attempts" else ""
        )
        text = (
            f"{len(found)} {_noun(self.count)} of {self.match.text()} ({bounds_text})"
            + (f": {listed}" if listed else "")
            + _failed_note(matches, self.count, evidence)
            + _unparsed_note(self.match, evidence)
        )
        return self.outcome(ok, text)


@dataclass(frozen=True, kw_only=True)
class ToolAbsentGrader(_OverCalls):
    type: str = field(default="tool_absent", init=False)
    match: CallMatch

    def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
        matches, found = self._matching(self.match, evidence)
        if not found:
            return self.outcome(
                True,
                f"no {_noun(self.count, plural=False)} of {self.match.text()}{_attempts(self.count)}"
                + _failed_note(matches, self.count, evidence)
                + _unparsed_note(self.match, evidence),
            )
        listed = ", ".join(call_text(c, evidence) for c in found[:LISTED])
        listed += " ..." if len(found) > LISTED else ""
        return self.outcome(
            False,
            f"{len(found)} {_noun(self.count)} of {self.match.text()}{_attempts(self.count)}, which must "
            f"not happen: {listed}",
        )


@dataclass(frozen=True, kw_only=True)
class ToolOrderGrader(_OverCalls):
    type: str = field(default="tool_order", init=False)
    steps: tuple[CallMatch, ...]

    def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
        at = 0
        placed: list[str] = []
        calls = self._counted(evidence)
        for n, step in enumerate(self.steps, 1):
            pos = next((p for p in range(at, len(calls)) if step.matches(calls[p], evidence)), None)
            if pos is None:
                after = f" after {placed[-1].split(' ', 1)[0]}" if placed else ""
                anywhere = next((c for c in calls if step.matches(c, evidence)), None)
                why = (
                    f"; it happens only before: {call_text(anywhere, evidence)}"
                    if anywhere is not None and placed
                    else ""
                )
                done = f" ({'; '.join(placed)})" if placed else ""
                failed = [c for c in evidence.tool_calls if step.matches(c, evidence)]
                return self.outcome(
                    False,
                    f"step {n} of {len(self.steps)}, {step.text()}, has no "
                    f"{_noun(self.count, plural=False)}{_attempts(self.count)}{after}{done}{why}"
                    + _failed_note(failed, self.count, evidence)
                    + _unparsed_note(step, evidence),
                )
            placed.append(call_text(calls[pos], evidence))
            at = pos + 1
        return self.outcome(True, f"in order{_attempts(self.count)}: " + "; ".join(placed))


@dataclass(frozen=True, kw_only=True)
class _FileGrader(Common):
    path: str
    present: ClassVar[bool] = True

    def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
        if evidence.workspace is None:
            return self.outcome(None, "no workspace to read", error="no workspace to read")
        found = evidence.workspace.matching(self.path)
        names = ", ".join(e.path + ("/" if e.kind == "dir" else "") for e in found[:LISTED])
        names += " ..." if len(found) > LISTED else ""
        if self.present:
            if found:
                return self.outcome(True, f"{self.path!r} exists: {names}")
            return self.outcome(False, f"nothing in the workspace matches {self.path!r}")
        if found:
            return self.outcome(False, f"{self.path!r} must not exist, but: {names}")
        return self.outcome(True, f"nothing in the workspace matches {self.path!r}")


@dataclass(frozen=True, kw_only=True)
class FileExistsGrader(_FileGrader):
    type: str = field(default="file_exists", init=False)


@dataclass(frozen=True, kw_only=True)
class FileAbsentGrader(_FileGrader):
    type: str = field(default="file_absent", init=False)
    present: ClassVar[bool] = False


LINK_MODE = "120000"  # git's mode of a symlink


def _now(ws: WorkspaceFiles, rel: str, size: int) -> tuple[str | None, bytes]:
    """(kind, content) of a path now, read without following any link on the way: kind is
    file | link | dir | other, None when it is gone, "through a link" when a folder above it
    became a link; content is at most size + 1 bytes (a file) or the link's target."""
    here = ws.root
    parts = rel.split("/")
    for n, part in enumerate(parts):
        here = here / part
        try:
            mode = os.lstat(here).st_mode
        except OSError:
            return None, b""
        last = n == len(parts) - 1
        if stat.S_ISLNK(mode):
            if not last:
                return "through a link", b""
            try:
                return "link", os.readlink(here).encode("utf-8", "surrogateescape")
            except OSError:
                return "link", b""
        if not last and not stat.S_ISDIR(mode):
            return None, b""
    if stat.S_ISDIR(mode):
        return "dir", b""
    if not stat.S_ISREG(mode):
        return "other", b""
    data = ws.read(rel, size + 1)
    return ("file", data) if data is not None else ("other", b"")


@dataclass(frozen=True, kw_only=True)
class FilesUnchangedGrader(Common):
    """The files of the seeded base under these globs are in the workspace as they were (same
    bytes, still a file or still a link), and no file was added under them: decided from the
    workspace against the harness's own copy of the base, however the agent changed them."""

    type: str = field(default="files_unchanged", init=False)
    path: tuple[str, ...]

    def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
        globs = ", ".join(repr(p) for p in self.path)
        if evidence.workspace is None or evidence.base is None:
            why = "no workspace and seeded base to compare"
            return self.outcome(None, why, error=why)
        regexes = [compile_glob(p) for p in self.path]

        def hit(rel: str) -> bool:
            return any(r.fullmatch(rel) for r in regexes)

        base = {rel: v for rel, v in evidence.base().items() if hit(rel)}
        if not base:
            why = f"no file of the seeded base matches {globs}"
            return self.outcome(None, why, error=why)
        changes: list[str] = []
        for rel, (mode, data) in sorted(base.items()):
            kind, now = _now(evidence.workspace, rel, len(data))
            was = "link" if mode == LINK_MODE else "file"
            if kind is None:
                changes.append(f"{rel} deleted")
            elif kind != was:
                changes.append(
                    f"{rel} is now a {kind}" if kind != "through a link" else f"{rel} is reached {kind}"
                )
            elif now != data:
                changes.append(f"{rel} modified" if was == "file" else f"{rel} points elsewhere")
        entries = evidence.workspace.entries()
        changes += [
            f"{e.path} added" for e in entries if e.kind != "dir" and e.path not in base and hit(e.path)
        ]
        if changes:
            listed = "; ".join(changes[:LISTED]) + (" ..." if len(changes) > LISTED else "")
            return self.outcome(
                False, f"{len(changes)} change(s) under {globs} against the seeded base: {listed}"
            )
        if evidence.workspace.truncated:
            why = f"the workspace holds more than {len(entries)} entries: an added file may be unseen"
            return self.outcome(None, why, error=why)
        return self.outcome(True, f"{len(base)} seeded file(s) under {globs} unchanged, none added")


# ---------------------------------------------------------------- task.toml: each type's keys

INPUT_KEYS = ("path", "regex")
STEP_KEYS = ("tool", "input")


def _input_match(t: Table, value: object, key: str) -> InputMatch | None:
    if not isinstance(value, Mapping):
        t.problem(key, f'must be a table like {{ path = "file_path", regex = "\\\\.py$" }}, not {value!r}')
        return None
    unknown = sorted(set(value) - set(INPUT_KEYS))
    if unknown:
        t.problem(key, f"has unknown key(s) {', '.join(unknown)} (known: path, regex)")
        return None
    path = value.get("path")
    if not isinstance(path, str) or not path or any(not part for part in path.split(".")):
        t.problem(
            key, f"needs 'path', a dotted JSON path into the tool's input (e.g. \"file_path\"), not {path!r}"
        )
        return None
    regex = t.regex(f"{key}.regex", value=value.get("regex", ""))
    return InputMatch(path=path, regex=regex) if regex is not None else None


def _call_match(t: Table, table: Mapping[str, Any], key: str) -> CallMatch | None:
    tool = table.get("tool")
    tools = [tool] if isinstance(tool, str) else tool
    if not isinstance(tools, list) or not tools or not all(isinstance(x, str) and x.strip() for x in tools):
        t.problem(f"{key}tool", f"must be a tool name or glob (or a list of them), not {tool!r}")
        return None
    given = table.get("input")
    match = _input_match(t, given, f"{key}input") if given is not None else None
    if given is not None and match is None:
        return None
    return CallMatch(tools=tuple(tools), input=match)


def _regex(t: Table, common: dict[str, Any], root: Path) -> Grader | None:
    target = t.choice("target", TARGETS, "reply")
    flags_text = t.table.get("flags", "")
    flags = 0
    if not isinstance(flags_text, str) or set(flags_text) - set(FLAGS):
        t.problem("flags", f"must be a string of {', '.join(FLAGS)}, not {flags_text!r}")
    else:
        for ch in flags_text:
            flags |= FLAGS[ch]
    pattern = t.regex("pattern", flags)
    mode = t.choice("mode", MODES, "contains")
    lo, hi = bounds(t, None)
    if mode == "count" and lo is None and hi is None:
        t.problem("mode", "is 'count', which needs 'min' and/or 'max'")
    if mode != "count" and ("min" in t.table or "max" in t.table):
        t.problem("min" if "min" in t.table else "max", "is only for mode = 'count'")
    glob = t.table.get("glob", "**/*")
    if target != "files" and "glob" in t.table:
        t.problem("glob", "is only for target = 'files'")
    elif (why := glob_problem(glob)) is not None:
        t.problem("glob", why)
    if pattern is None:
        return None
    return RegexGrader(target=target, pattern=pattern, mode=mode, min=lo, max=hi, glob=str(glob), **common)


def _tool_used(t: Table, common: dict[str, Any], root: Path) -> Grader | None:
    match = _call_match(t, t.table, "")
    lo, hi = bounds(t, 1)
    count = t.choice("count", COUNTS, "succeeded")
    target = t.choice("target", CALL_TARGETS, "tool_calls")
    if match is None:
        return None
    return ToolUsedGrader(
        match=match, min=1 if lo is None else lo, max=hi, count=count, target=target, **common
    )


def _tool_absent(t: Table, common: dict[str, Any], root: Path) -> Grader | None:
    match = _call_match(t, t.table, "")
    count = t.choice("count", COUNTS, "succeeded")
    target = t.choice("target", CALL_TARGETS, "tool_calls")
    return ToolAbsentGrader(match=match, count=count, target=target, **common) if match else None


def _tool_order(t: Table, common: dict[str, Any], root: Path) -> Grader | None:
    steps = t.table.get("steps")
    if not isinstance(steps, list) or len(steps) < 2 or not all(isinstance(s, Mapping) for s in steps):
        t.problem("steps", 'must be a list of two or more tables like { tool = "Read" }')
        return None
    matches: list[CallMatch] = []
    for i, step in enumerate(steps, 1):
        unknown = sorted(set(step) - set(STEP_KEYS))
        if unknown:
            t.problem(f"steps.{i}", f"has unknown key(s) {', '.join(unknown)} (known: tool, input)")
        m = _call_match(t, step, f"steps.{i}.")
        if m is not None:
            matches.append(m)
    count = t.choice("count", COUNTS, "succeeded")
    target = t.choice("target", CALL_TARGETS, "tool_calls")
    if len(matches) != len(steps):
        return None
    return ToolOrderGrader(steps=tuple(matches), count=count, target=target, **common)


def _file(cls: type[FileExistsGrader] | type[FileAbsentGrader]) -> Parse:
    def parse(t: Table, common: dict[str, Any], root: Path) -> Grader | None:
        path = t.table.get("path")
        if (why := glob_problem(path)) is not None:
            t.problem("path", why)
            return None
        return cls(path=str(path), **common)

    return parse


def _files_unchanged(t: Table, common: dict[str, Any], root: Path) -> Grader | None:
    given = t.table.get("path")
    globs = given if isinstance(given, list) and given else [given]
    for g in globs:
        if (why := glob_problem(g)) is not None:
            t.problem("path", f"{why} (a glob or a list of globs of seeded files)")
            return None
    return FilesUnchangedGrader(path=tuple(str(g) for g in globs), **common)


# The deterministic types, in the order the type error lists them (registry.py reads it).
GRADER_TYPES = (
    GraderType("regex", ("target", "pattern", "mode", "min", "max", "flags", "glob"), _regex),
    GraderType("tool_used", ("tool", "input", "min", "max", "count", "target"), _tool_used),
    GraderType("tool_order", ("steps", "count", "target"), _tool_order),
    GraderType("tool_absent", ("tool", "input", "count", "target"), _tool_absent),
    GraderType("file_exists", ("path",), _file(FileExistsGrader)),
    GraderType("file_absent", ("path",), _file(FileAbsentGrader)),
    GraderType("files_unchanged", ("path",), _files_unchanged),
)
