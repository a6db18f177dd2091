"""What task.toml and ref.toml declare about graders, parsed and checked.

- `[[graders]]` tables in task.toml become typed graders (deterministic.py, model_graded.py);
- `expect_fire` says whether an arm's skill, command, agent or hook should fire on the task;
- a reference's `ref.toml` may carry what the agent said and did (`reply` or `reply_file`,
  `tool_calls`) and the outcome each grader must give on it (`graders = {name = true}`).

Every problem is passed to `problem()` as one line naming the file, the grader and the key, so
the task loader lists them with the task's other problems before anything runs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from pytest_ponybench.core.armparts import PART_KINDS
from pytest_ponybench.core.graders.deterministic import (
    FLAGS,
    MODES,
    TARGETS,
    CallMatch,
    FileAbsentGrader,
    FileExistsGrader,
    FilesUnchangedGrader,
    InputMatch,
    RegexGrader,
    ToolAbsentGrader,
    ToolOrderGrader,
    ToolUsedGrader,
)
from pytest_ponybench.core.graders.evidence import PATH_KEYS, glob_problem
from pytest_ponybench.core.graders.model_graded import ONS, PASS_IF, LlmGrader, LlmReferenceGrader
from pytest_ponybench.core.graders.outcome import ARMS, AXES, TYPES, Grader

__all__ = [
    "ARM_KINDS",
    "COMMON_KEYS",
    "DECLARABLE_TOOLS",
    "DECLARABLE_WRITES",
    "DeclaredCall",
    "ExpectFire",
    "INPUT_KEYS",
    "MCP_PREFIX",
    "NAME_RE",
    "Problem",
    "REF_META_KEYS",
    "RefMeta",
    "STEP_KEYS",
    "TYPE_KEYS",
    "inside",
    "parse_expect_fire",
    "parse_graders",
    "parse_ref_meta",
]

NAME_RE = re.compile(r"^[A-Za-z0-9_-]+$")
COMMON_KEYS = ("name", "type", "axis", "weight", "arm")
TYPE_KEYS: dict[str, tuple[str, ...]] = {
    "regex": ("target", "pattern", "mode", "min", "max", "flags", "glob"),
    "tool_used": ("tool", "input", "min", "max"),
    "tool_absent": ("tool", "input"),
    "tool_order": ("steps",),
    "file_exists": ("path",),
    "file_absent": ("path",),
    "files_unchanged": ("path",),
    "llm": ("criteria", "criteria_file", "on", "files", "rubric", "pass_level"),
    "llm_reference": ("reference", "criteria", "criteria_file", "on", "files", "pass_if"),
}
INPUT_KEYS = ("path", "regex")
STEP_KEYS = ("tool", "input")
ARM_KINDS = PART_KINDS  # what expect_fire may name by kind (a composed arm only by name)
# Tools a reference may declare for the offline agents to call: what reads or looks, never what
# writes (the reference's files are written from its folder), runs code (Bash is not offered
# in cells) or starts a subagent (which the same offline model would then play).
DECLARABLE_TOOLS = ("Read", "Glob", "Grep", "LS", "NotebookRead", "Skill", "ToolSearch", "TodoWrite")
# ...and a Write beside them: a file written as the agent spelled its path (`tests/./x.py`), made
# before the reference's files are written; the selftest lays it too, so cells and proofs agree.
DECLARABLE_WRITES = ("Write",)
MCP_PREFIX = "mcp__"
REF_META_KEYS = ("note", "reply", "reply_file", "tool_calls", "graders")

Problem = Callable[[str], None]


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def inside(path: object, root: Path) -> Path | None:
    """root/path when path is a relative path that stays inside root (links resolved), else None."""
    if (
        not isinstance(path, str)
        or not path
        or PurePosixPath(path).is_absolute()
        or ".." in PurePosixPath(path).parts
    ):
        return None
    full = (root / path).resolve()
    return full if full == root.resolve() or root.resolve() in full.parents else None


class _Table:
    """One [[graders]] table: typed getters that report each bad key once."""

    def __init__(self, table: Mapping[str, Any], where: str, problem: Problem) -> None:
        self.table, self.where, self._problem = table, where, problem
        self.ok = True

    def problem(self, key: str, msg: str) -> None:
        self.ok = False
        self._problem(f"{self.where}: key {key!r} {msg}")

    def choice(self, key: str, choices: tuple[str, ...], default: str) -> str:
        value = self.table.get(key, default)
        if value not in choices:
            self.problem(key, f"is {value!r}; expected one of {', '.join(choices)}")
            return default
        return str(value)

    def text(self, key: str, *, required: bool = False) -> str | None:
        value = self.table.get(key)
        if value is None:
            if required:
                self.problem(key, "is missing")
            return None
        if not isinstance(value, str) or not value.strip():
            self.problem(key, f"must be a non-empty string, not {value!r}")
            return None
        return value

    def count(self, key: str) -> int | None:
        value = self.table.get(key)
        if value is not None and not _is_count(value):
            self.problem(key, f"must be a whole number >= 0, not {value!r}")
            return None
        return value if isinstance(value, int) else None

    def regex(self, key: str, flags: int = 0, value: object = None) -> re.Pattern[str] | None:
        value = self.table.get(key) if value is None else value
        if not isinstance(value, str) or not value:
            self.problem(key, f"must be a non-empty regular expression (a string), not {value!r}")
            return None
        try:
            return re.compile(value, flags)
        except (re.error, OverflowError, RecursionError) as exc:
            self.problem(key, f"is not a valid regular expression: {exc}")
            return None

    def file_text(self, key: str, root: Path) -> str | None:
        value = self.table.get(key)
        full = inside(value, root)
        if full is None:
            self.problem(key, f"must name a file inside the task folder (relative, no '..'), not {value!r}")
            return None
        try:
            text = full.read_text(encoding="utf-8")
        except FileNotFoundError:
            self.problem(key, f"names {value!r}, which does not exist in the task folder")
            return None
        except (OSError, UnicodeDecodeError) as exc:
            self.problem(key, f"names {value!r}, which cannot be read as UTF-8 text: {exc}")
            return None
        if not text.strip():
            self.problem(key, f"names {value!r}, which is empty")
            return None
        return text


def _input_match(t: _Table, value: object, key: str) -> InputMatch | None:
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


def _call_match(t: _Table, table: Mapping[str, Any], key: str) -> CallMatch | None:
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


def _criteria(t: _Table, root: Path) -> str | None:
    has_text, has_file = "criteria" in t.table, "criteria_file" in t.table
    if has_text == has_file:
        t.problem(
            "criteria",
            "or 'criteria_file' (one of them) is required"
            if not has_text
            else "and 'criteria_file' are both given; keep one",
        )
        return None
    return t.text("criteria") if has_text else t.file_text("criteria_file", root)


def _on(t: _Table) -> tuple[str, tuple[str, ...]]:
    on = t.choice("on", ONS, "reply")
    files = t.table.get("files")
    if on == "files":
        if not isinstance(files, list) or not files:
            t.problem("files", 'is required with on = "files": a list of workspace globs')
            return on, ()
        for g in files:
            if (why := glob_problem(g)) is not None:
                t.problem("files", why)
        return on, tuple(str(g) for g in files)
    if files is not None:
        t.problem("files", f'is only for on = "files" (this grader reads {on!r})')
    return on, ()


def _one(table: Mapping[str, Any], n: int, root: Path, problem: Problem) -> Grader | None:
    name = table.get("name")
    label = f"[[graders]] #{n}" + (f" {name!r}" if isinstance(name, str) else "")
    t = _Table(table, f"task.toml: {label}", problem)
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        t.problem("name", f"must be letters, digits, _ or - (it names the grader in records), not {name!r}")
        name = f"grader{n}"
    kind = table.get("type")
    if kind not in TYPES:
        t.problem("type", f"is {kind!r}; expected one of {', '.join(TYPES)}")
        return None
    known = set(COMMON_KEYS) | set(TYPE_KEYS[kind])
    unknown = sorted(set(table) - known)
    if unknown:
        t.problem(unknown[0], f"is not a key of a {kind} grader (known: {', '.join(sorted(known))})")
    common: dict[str, Any] = {
        "name": name,
        "axis": t.choice("axis", AXES, "score"),
        "arm": t.choice("arm", ARMS, "all"),
    }
    weight = table.get("weight", 1.0)
    if not _is_number(weight) or weight <= 0:
        t.problem("weight", f"must be a finite number > 0, not {weight!r}")
        weight = 1.0
    common["weight"] = float(weight)
    if common["arm"] == "arms-only" and common["axis"] != "score" and "axis" in table:
        t.problem("axis", "must be 'score' for an arms-only grader (it stays out of the cell's axes)")
    grader = _typed(t, str(kind), common, root)
    return grader if t.ok else None


def _bounds(t: _Table, default_min: int | None) -> tuple[int | None, int | None]:
    lo, hi = t.count("min"), t.count("max")
    lo = default_min if lo is None and "min" not in t.table else lo
    if lo is not None and hi is not None and lo > hi:
        t.problem("min", f"({lo}) is greater than 'max' ({hi})")
    return lo, hi


def _typed(t: _Table, kind: str, common: dict[str, Any], root: Path) -> Grader | None:
    if kind == "regex":
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
        lo, hi = _bounds(t, None)
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
        return RegexGrader(
            target=target, pattern=pattern, mode=mode, min=lo, max=hi, glob=str(glob), **common
        )
    if kind in ("tool_used", "tool_absent"):
        match = _call_match(t, t.table, "")
        if kind == "tool_absent":
            return ToolAbsentGrader(match=match, **common) if match else None
        lo, hi = _bounds(t, 1)
        return ToolUsedGrader(match=match, min=1 if lo is None else lo, max=hi, **common) if match else None
    if kind == "tool_order":
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
        return ToolOrderGrader(steps=tuple(matches), **common) if len(matches) == len(steps) else None
    if kind in ("file_exists", "file_absent"):
        path = t.table.get("path")
        if (why := glob_problem(path)) is not None:
            t.problem("path", why)
            return None
        cls = FileExistsGrader if kind == "file_exists" else FileAbsentGrader
        return cls(path=str(path), **common)
    if kind == "files_unchanged":
        given = t.table.get("path")
        globs = given if isinstance(given, list) and given else [given]
        for g in globs:
            if (why := glob_problem(g)) is not None:
                t.problem("path", f"{why} (a glob or a list of globs of seeded files)")
                return None
        return FilesUnchangedGrader(path=tuple(str(g) for g in globs), **common)
    criteria = _criteria(t, root)
    on, files = _on(t)
    if kind == "llm":
        rubric = t.table.get("rubric")
        levels: tuple[str, ...] = ()
        pass_level = t.table.get("pass_level")
        if rubric is not None:
            if (
                not isinstance(rubric, list)
                or len(rubric) < 2
                or not all(isinstance(x, str) and x.strip() for x in rubric)
            ):
                t.problem("rubric", "must be a list of two or more level descriptions, worst first")
            else:
                levels = tuple(rubric)
                if not isinstance(pass_level, int) or not _is_count(pass_level) or pass_level >= len(levels):
                    t.problem(
                        "pass_level",
                        f"must be the index of the lowest passing level (0 to {len(levels) - 1}), "
                        f"not {pass_level!r}",
                    )
        elif pass_level is not None:
            t.problem("pass_level", "is only for a grader with a 'rubric'")
        if criteria is None:
            return None
        return LlmGrader(
            criteria=criteria,
            on=on,
            files=files,
            rubric=levels,
            pass_level=pass_level if levels and _is_count(pass_level) else None,
            **common,
        )
    reference = t.file_text("reference", root)
    pass_if = t.choice("pass_if", PASS_IF, "not_worse")
    if criteria is None or reference is None:
        return None
    return LlmReferenceGrader(
        criteria=criteria,
        reference=reference,
        reference_file=str(t.table.get("reference")),
        on=on,
        files=files,
        pass_if=pass_if,
        **common,
    )


def parse_graders(raw: object, root: Path, problem: Problem) -> tuple[Grader, ...]:
    """The task's [[graders]] (raw is task.toml's `graders` value, or None)."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(t, Mapping) for t in raw):
        problem("task.toml: key 'graders' must be [[graders]] tables")
        return ()
    graders: list[Grader] = []
    seen: set[str] = set()
    for n, table in enumerate(raw, 1):
        name = table.get("name")
        if isinstance(name, str) and name in seen:
            problem(
                f"task.toml: [[graders]] #{n} {name!r}: key 'name' is used by an earlier grader; "
                "names are unique"
            )
            continue
        seen.add(str(name))
        grader = _one(table, n, root, problem)
        if grader is not None:
            graders.append(grader)
    return tuple(graders)


# ---------------------------------------------------------------- trigger accuracy


@dataclass(frozen=True)
class ExpectFire:
    """Whether an arm's skill, command, agent or hook should fire on this task: one answer for
    every arm, or by arm kind (`plugin`, `prompt`, `settings`) and by arm name (a name wins)."""

    default: bool | None = None
    by_kind: Mapping[str, bool] = field(default_factory=dict)
    by_name: Mapping[str, bool] = field(default_factory=dict)

    def for_arm(self, name: str, kind: str) -> bool | None:
        """The expectation for one arm; None for the baseline (nothing of its own to fire) and
        for arms the declaration does not cover."""
        if kind == "baseline":
            return None
        if name in self.by_name:
            return self.by_name[name]
        return self.by_kind.get(kind, self.default)

    def describe(self) -> Any:
        if not self.by_kind and not self.by_name:
            return self.default
        return {**self.by_kind, **self.by_name}


def parse_expect_fire(raw: object, problem: Problem) -> ExpectFire | None:
    if raw is None:
        return None
    if isinstance(raw, bool):
        return ExpectFire(default=raw)
    where = "task.toml: key 'expect_fire'"
    if not isinstance(raw, Mapping) or not raw:
        problem(f"{where} must be true, false or a table of arm kind or arm name -> true/false, not {raw!r}")
        return None
    by_kind: dict[str, bool] = {}
    by_name: dict[str, bool] = {}
    for key, value in raw.items():
        if not isinstance(value, bool):
            problem(f"{where}: {key!r} must be true or false, not {value!r}")
        elif key == "baseline":
            problem(
                f"{where}: 'baseline' has nothing of its own to fire; "
                f"name an arm or a kind ({', '.join(ARM_KINDS)})"
            )
        elif key in ARM_KINDS:
            by_kind[key] = value
        elif re.fullmatch(r"[A-Za-z0-9_.]+", key):
            by_name[key] = value
        else:
            problem(f"{where}: {key!r} is neither an arm kind ({', '.join(ARM_KINDS)}) nor an arm name")
    return ExpectFire(by_kind=by_kind, by_name=by_name)


# ---------------------------------------------------------------- what a reference declares


@dataclass(frozen=True)
class DeclaredCall:
    """A tool call a reference makes (paths relative to the workspace)."""

    tool: str
    input: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        return {"tool": self.tool, "input": dict(self.input)}


@dataclass(frozen=True)
class RefMeta:
    """What a reference folder's ref.toml declares beyond its verdict."""

    reply: str | None = None
    tool_calls: tuple[DeclaredCall, ...] = ()
    graders: Mapping[str, bool] = field(default_factory=dict)
    note: str = ""
    meta_files: tuple[str, ...] = ()  # files of the folder that are declarations, never laid

    @property
    def empty(self) -> bool:
        return self.reply is None and not self.tool_calls and not self.graders

    def describe(self) -> dict[str, Any]:
        return {
            "reply": self.reply,
            "tool_calls": [c.describe() for c in self.tool_calls],
            "graders": dict(sorted(self.graders.items())),
        }


def _declared_call(value: object, n: int, where: str, problem: Problem) -> DeclaredCall | None:
    here = f"{where}: key 'tool_calls' #{n}"
    if not isinstance(value, Mapping) or set(value) - {"tool", "input"}:
        problem(
            f'{here} must be a table like {{ tool = "Read", input = {{ file_path = "app.py" }} }}, '
            f"not {value!r}"
        )
        return None
    tool = value.get("tool")
    declarable = (*DECLARABLE_TOOLS, *DECLARABLE_WRITES)
    if not isinstance(tool, str) or not (tool in declarable or tool.startswith(MCP_PREFIX)):
        problem(
            f"{here}: tool {tool!r} cannot be declared (declarable: {', '.join(declarable)}, or an "
            "mcp__ tool; the reference's files are written from its folder, and Bash or a subagent "
            "would not run in a cell)"
        )
        return None
    given = value.get("input", {})
    if not isinstance(given, Mapping):
        problem(f"{here}: 'input' must be a table, not {given!r}")
        return None
    if tool in DECLARABLE_WRITES and (
        set(given) != {"file_path", "content"} or not all(isinstance(v, str) for v in given.values())
    ):
        problem(
            f'{here}: a declared Write takes exactly {{ file_path = "...", content = "..." }} '
            f"(two strings), not {dict(given)!r}"
        )
        return None
    for key in (*PATH_KEYS, "pattern" if tool == "Glob" else ""):
        if key and key in given and (why := glob_problem(given[key])) is not None:
            problem(f"{here}: input {key!r} {why} (a call outside the workspace fails confined)")
            return None
    return DeclaredCall(tool=tool, input=dict(given))


def parse_ref_meta(
    meta: Mapping[str, Any], folder: Path, where: str, grader_names: tuple[str, ...], problem: Problem
) -> RefMeta:
    """The declarations of one ref.toml (`where` names it, e.g. `refs/r1/ref.toml`)."""
    reply = meta.get("reply")
    meta_files: list[str] = []
    if reply is not None and not isinstance(reply, str):
        problem(f"{where}: key 'reply' must be a string (the agent's final reply), not {reply!r}")
        reply = None
    if "reply_file" in meta:
        if reply is not None:
            problem(f"{where}: keys 'reply' and 'reply_file' are both given; keep one")
        name = meta["reply_file"]
        full = inside(name, folder)
        if full is None or not full.is_file():
            problem(f"{where}: key 'reply_file' must name a file in {folder} (relative), not {name!r}")
        else:
            try:
                reply = full.read_text(encoding="utf-8")
                meta_files.append(full.relative_to(folder.resolve()).as_posix())
            except (OSError, UnicodeDecodeError) as exc:
                problem(f"{where}: key 'reply_file': {name!r} cannot be read as UTF-8 text: {exc}")
    calls: list[DeclaredCall] = []
    raw_calls = meta.get("tool_calls", [])
    if not isinstance(raw_calls, list):
        problem(f"{where}: key 'tool_calls' must be a list of tables, not {raw_calls!r}")
    else:
        for n, value in enumerate(raw_calls, 1):
            call = _declared_call(value, n, where, problem)
            if call is not None:
                calls.append(call)
    graders: dict[str, bool] = {}
    raw_graders = meta.get("graders", {})
    if not isinstance(raw_graders, Mapping):
        problem(f"{where}: key 'graders' must be a table of grader name -> true/false, not {raw_graders!r}")
    else:
        for name, value in raw_graders.items():
            if name not in grader_names:
                known = ", ".join(grader_names) or "none: task.toml has no [[graders]]"
                problem(f"{where}: key 'graders': {name!r} is not a grader of this task (known: {known})")
            elif not isinstance(value, bool):
                problem(f"{where}: key 'graders': {name!r} must be true or false, not {value!r}")
            else:
                graders[name] = value
    note = meta.get("note", "")
    return RefMeta(
        reply=reply,
        tool_calls=tuple(calls),
        graders=graders,
        note=note if isinstance(note, str) else "",
        meta_files=tuple(meta_files),
    )
