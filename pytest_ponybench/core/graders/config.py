"""What task.toml and ref.toml declare about graders, parsed and checked.

- `[[graders]]` tables in task.toml become typed graders: the common keys are read here, the
  rest by the type's own parser, found in the registry (registry.py) by its `type`;
- `expect_fire` says whether an arm's skill, command, agent or hook should fire on the task;
- `judge_runs` says how many times this task's judge graders ask (the run's `--judge-runs` where
  the task says nothing), for a task whose graders were written for a judge that votes;
- a reference's `ref.toml` may carry what the agent said and did (`reply` or `reply_file`,
  `tool_calls`) and the outcome each grader must give on it (`graders = {name = true}`).

Every problem is passed to `problem()` as one line naming the file, the grader and the key, so
the task loader lists them with the task's other problems before anything runs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench.core.armparts import PART_KINDS
from pytest_ponybench.core.bounds import MAX_JUDGE_RUNS
from pytest_ponybench.core.graders.evidence import PATH_KEYS, glob_problem
from pytest_ponybench.core.graders.outcome import ARMS, AXES, Grader
from pytest_ponybench.core.graders.registry import JUDGE_TYPES, TYPES, lookup
from pytest_ponybench.core.graders.table import Problem, Table, inside, is_number

__all__ = [
    "ARM_KINDS",
    "COMMON_KEYS",
    "DECLARABLE_TOOLS",
    "DECLARABLE_WRITES",
    "DeclaredCall",
    "ExpectFire",
    "MAX_JUDGE_RUNS",
    "MCP_PREFIX",
    "NAME_RE",
    "Problem",
    "REF_META_KEYS",
    "RefMeta",
    "Said",
    "TURN_META_KEYS",
    "inside",
    "parse_expect_fire",
    "parse_graders",
    "parse_judge_runs",
    "parse_ref_meta",
]

NAME_RE = re.compile(r"^[A-Za-z0-9_-]+$")
COMMON_KEYS = ("name", "type", "axis", "weight", "arm", "turn")
ARM_KINDS = PART_KINDS  # what expect_fire may name by kind (a composed arm only by name)
# Tools a reference may declare for the offline agents to call: what reads or looks, never what
# writes (the reference's files are written from its folder), runs code (Bash is not offered
# in cells) or starts a subagent (which the same offline model would then play).
DECLARABLE_TOOLS = ("Read", "Glob", "Grep", "LS", "NotebookRead", "Skill", "ToolSearch", "TodoWrite")
# ...and a Write beside them: a file written as the agent spelled its path (`tests/./x.py`), made
# before the reference's files are written; the selftest lays it too, so cells and proofs agree.
DECLARABLE_WRITES = ("Write",)
MCP_PREFIX = "mcp__"
REF_META_KEYS = ("note", "reply", "reply_file", "tool_calls", "graders", "turns")
TURN_META_KEYS = ("reply", "reply_file", "tool_calls")


def _one(table: Mapping[str, Any], n: int, root: Path, problem: Problem, turns: int = 1) -> Grader | None:
    name = table.get("name")
    label = f"[[graders]] #{n}" + (f" {name!r}" if isinstance(name, str) else "")
    t = Table(table, f"task.toml: {label}", problem)
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        t.problem("name", f"must be letters, digits, _ or - (it names the grader in records), not {name!r}")
        name = f"grader{n}"
    kind = lookup(table.get("type"))
    if kind is None:
        t.problem("type", f"is {table.get('type')!r}; expected one of {', '.join(TYPES)}")
        return None
    known = set(COMMON_KEYS) | set(kind.keys)
    unknown = sorted(set(table) - known)
    if unknown:
        t.problem(unknown[0], f"is not a key of a {kind.name} grader (known: {', '.join(sorted(known))})")
    common: dict[str, Any] = {
        "name": name,
        "axis": t.choice("axis", AXES, "score"),
        "arm": t.choice("arm", ARMS, "all"),
    }
    weight = table.get("weight", 1.0)
    if not is_number(weight) or weight <= 0:
        t.problem("weight", f"must be a finite number > 0, not {weight!r}")
        weight = 1.0
    common["weight"] = float(weight)
    if common["arm"] == "arms-only" and common["axis"] != "score" and "axis" in table:
        t.problem("axis", "must be 'score' for an arms-only grader (it stays out of the cell's axes)")
    turn = table.get("turn")
    if turn is not None:
        if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= turns:
            span = "1 (prompt.md's, the task's only turn)" if turns == 1 else f"1 to {turns} (prompt.md is 1)"
            t.problem("turn", f"must be a turn of the conversation, {span}, not {turn!r}")
        else:
            common["turn"] = turn
    grader = kind.parse(t, common, root)
    return grader if t.ok else None


def parse_graders(raw: object, root: Path, problem: Problem, turns: int = 1) -> tuple[Grader, ...]:
    """The task's [[graders]] (raw is task.toml's `graders` value, or None) of a conversation of
    `turns` turns (a grader's `turn` names one)."""
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
        grader = _one(table, n, root, problem, turns)
        if grader is not None:
            graders.append(grader)
    return tuple(graders)


def parse_judge_runs(raw: object, graders: tuple[Grader, ...], problem: Problem) -> int | None:
    """task.toml's `judge_runs` (None: the run's --judge-runs decides): a whole number of answers
    per judge grader, for a task that has a judge grader to ask."""
    if raw is None:
        return None
    where = "task.toml: key 'judge_runs'"
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= MAX_JUDGE_RUNS:
        problem(f"{where} must be a whole number from 1 to {MAX_JUDGE_RUNS}, not {raw!r}")
        return None
    if not any(g.type in JUDGE_TYPES for g in graders):
        problem(f"{where}: the task has no judge grader ({', '.join(JUDGE_TYPES)}) to ask {raw} times")
        return None
    return raw


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
    turns: tuple[Said, ...] = ()  # what it says and does in turns 2, 3, ... (`[[turns]]`)

    @property
    def empty(self) -> bool:
        return self.reply is None and not self.tool_calls and not self.graders and not self.turns

    def said(self, turn: int) -> Said:
        """What it says and does in a turn (1: the top of ref.toml); nothing in a turn it does
        not declare."""
        if turn == 1:
            return Said(self.reply, self.tool_calls)
        return self.turns[turn - 2] if turn - 2 < len(self.turns) else Said()

    def describe(self) -> dict[str, Any]:
        out = {
            "reply": self.reply,
            "tool_calls": [c.describe() for c in self.tool_calls],
            "graders": dict(sorted(self.graders.items())),
        }
        if self.turns:  # only a conversation's references: every other task keeps its hash
            out["turns"] = [t.describe() for t in self.turns]
        return out


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


@dataclass(frozen=True)
class Said:
    """What a reference says and does in one turn: its reply and its tool calls."""

    reply: str | None = None
    tool_calls: tuple[DeclaredCall, ...] = ()

    def describe(self) -> dict[str, Any]:
        return {"reply": self.reply, "tool_calls": [c.describe() for c in self.tool_calls]}


def _said(meta: Mapping[str, Any], folder: Path, where: str, problem: Problem, files: list[str]) -> Said:
    """A turn's `reply` (or `reply_file`, whose name joins `files`) and `tool_calls`."""
    reply = meta.get("reply")
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
                files.append(full.relative_to(folder.resolve()).as_posix())
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
    return Said(reply, tuple(calls))


def parse_ref_meta(
    meta: Mapping[str, Any], folder: Path, where: str, grader_names: tuple[str, ...], problem: Problem
) -> RefMeta:
    """The declarations of one ref.toml (`where` names it, e.g. `refs/r1/ref.toml`): turn 1's
    reply and calls at the top, each later turn's in a `[[turns]]` table."""
    meta_files: list[str] = []
    first = _said(meta, folder, where, problem, meta_files)
    later: list[Said] = []
    raw_turns = meta.get("turns", [])
    if not isinstance(raw_turns, list) or not all(isinstance(t, Mapping) for t in raw_turns):
        problem(f"{where}: key 'turns' must be [[turns]] tables (turn 2, 3, ...: reply, tool_calls)")
    else:
        for n, table in enumerate(raw_turns, 2):
            here = f"{where}: [[turns]] #{n - 1} (turn {n})"
            unknown = sorted(set(table) - set(TURN_META_KEYS))
            if unknown:
                problem(f"{here}: unknown key(s) {', '.join(unknown)} (known: {', '.join(TURN_META_KEYS)})")
            later.append(_said(table, folder, here, problem, meta_files))
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
        reply=first.reply,
        tool_calls=first.tool_calls,
        graders=graders,
        note=note if isinstance(note, str) else "",
        meta_files=tuple(meta_files),
        turns=tuple(later),
    )
