"""Benchmark task folders: loading and validation.

A task folder is the unit a benchmark author writes. Every problem in it is reported at
collection time with the folder, file and key, and one broken folder never hides the errors of
the others (`load_tasks` gathers them all before raising).

A task proves its checks with references: `good/` (correct and safe), `bad/` (fails the task's
axis) and any number of `refs/<name>/` folders, each declaring in `ref.toml` the verdict it must
get on both axes (`expect = "correct, unsafe"`). The selftest scores every one of them.

Beside the checks, a task may declare `[[graders]]` (the reply, the tool path, a judge) and
`expect_fire`; a reference's ref.toml may then carry what the agent said and did and the outcome
each grader must give (graders/config.py parses all of it). An open task with graders has
references too: the graders are what they prove.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench.core.conversation import History, Turn, parse_history, parse_turns
from pytest_ponybench.core.graders.config import (
    REF_META_KEYS,
    ExpectFire,
    Problem,
    RefMeta,
    parse_expect_fire,
    parse_graders,
    parse_judge_runs,
    parse_ref_meta,
)
from pytest_ponybench.core.graders.deterministic import (
    CallMatch,
    ToolAbsentGrader,
    ToolOrderGrader,
    ToolUsedGrader,
)
from pytest_ponybench.core.graders.outcome import Grader
from pytest_ponybench.core.graders.registry import JUDGE_TYPES
from pytest_ponybench.core.mocks import Mocks, load_mocks
from pytest_ponybench.core.names import name_problem
from pytest_ponybench.core.policy import POLICY_KEYS, AgentPolicy, parse_policy
from pytest_ponybench.errors import PonybenchError, excerpt

__all__ = [
    "AXES",
    "CHECK_PREFIXES",
    "DEFAULT_CHECK_TIMEOUT",
    "Expect",
    "KINDS",
    "KNOWN_KEYS",
    "MAX_CHECK_TIMEOUT",
    "MIN_CORRECT",
    "MIN_CORRECT_UNSAFE",
    "MIN_SAFE_INCORRECT",
    "MIN_UNSAFE",
    "REFS_DIR",
    "REF_FILE",
    "REF_KEYS",
    "SHARED_CHECKS_DIR",
    "Reference",
    "Task",
    "TaskError",
    "load_ref_meta",
    "load_refs",
    "load_task",
    "load_tasks",
    "read_tree",
    "select",
    "task_folders",
    "tree_hash",
]

KINDS = ("surgical", "fixture", "open")
AXES = ("safe", "correct")
CHECK_PREFIXES = ("test_correct", "test_safe")
KNOWN_KEYS = {
    "kind",
    "file",
    "fixture",
    "axis",
    "tags",
    "timeout",
    "description",
    "max_turns",
    "graders",
    "expect_fire",
    "judge_runs",
    "turns",
    "history",
    "shared_checks",
    *POLICY_KEYS,
}
DEFAULT_CHECK_TIMEOUT = 60.0
MAX_CHECK_TIMEOUT = 86400.0  # a day: past it, a number is a typo or an attack, never a check's time
REFS_DIR = "refs"
REF_FILE = "ref.toml"
REF_KEYS = {"expect", "blind", *REF_META_KEYS}
# Shared check modules live here, beside the task folders (skipped as a task: it starts with _).
SHARED_CHECKS_DIR = "_checks"
# What a task needs before its checks can be trusted: every task at least two correct
# references and one that is safe but incorrect; a task with safety checks at least three
# unsafe ones, one of them correct (so a check on the wrong axis shows in the selftest).
MIN_CORRECT = 2
MIN_SAFE_INCORRECT = 1
MIN_UNSAFE = 3
MIN_CORRECT_UNSAFE = 1


class TaskError(PonybenchError):
    """One or more malformed task folders; the message lists every problem found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class Expect:
    """The verdict a reference must get; None on an axis it does not declare (bad/ declares
    only the task's axis)."""

    correct: bool | None
    safe: bool | None

    @classmethod
    def parse(cls, text: str) -> Expect:
        """'correct, unsafe' (either order); ValueError naming what is wrong."""
        words = [w.strip().lower() for w in text.split(",") if w.strip()]
        correct = [w for w in words if w in ("correct", "incorrect")]
        safe = [w for w in words if w in ("safe", "unsafe")]
        other = [w for w in words if w not in ("correct", "incorrect", "safe", "unsafe")]
        if other or len(correct) != 1 or len(safe) != 1:
            raise ValueError(
                f'expect must name both axes, like "correct, safe" or "incorrect, safe" or '
                f'"correct, unsafe", not {text!r}'
            )
        return cls(correct=correct[0] == "correct", safe=safe[0] == "safe")

    def text(self) -> str:
        parts = []
        if self.correct is not None:
            parts.append("correct" if self.correct else "incorrect")
        if self.safe is not None:
            parts.append("safe" if self.safe else "unsafe")
        return ", ".join(parts)

    @property
    def kind(self) -> str:
        """The summary bucket: correct, correct+unsafe, unsafe, safe+incorrect (or partial)."""
        if self.correct is None and self.safe is None:
            return "graded"  # declares grader outcomes only (an open task's graders decide no axis)
        if self.correct and self.safe:
            return "correct"
        if self.safe is False:
            return "correct+unsafe" if self.correct else "unsafe"
        if self.correct is False and self.safe:
            return "safe+incorrect"
        return "incorrect"  # a bad/ reference of a task whose safety is not declared


@dataclass(frozen=True)
class Reference:
    """One reference solution: files laid over seed/fixture, and the verdict it must get."""

    name: str  # "good", "bad" or the folder name under refs/
    files: dict[str, bytes] = field(repr=False)
    expect: Expect
    note: str = ""
    meta: RefMeta = field(default_factory=RefMeta, repr=False)  # reply, tool calls, grader outcomes
    blind: bool = False  # written from the prompt alone, by someone who never read the checks

    @property
    def where(self) -> str:
        return self.name + "/" if self.name in ("good", "bad") else f"{REFS_DIR}/{self.name}/"


@dataclass(frozen=True)
class Task:
    id: str
    path: Path
    kind: str
    prompt: str
    file: str | None = None
    fixture: str | None = None
    fixture_path: Path | None = None
    axis: str = "safe"
    tags: tuple[str, ...] = ()
    timeout: float = DEFAULT_CHECK_TIMEOUT
    description: str = ""
    max_turns: int | None = None
    seed: dict[str, bytes] = field(default_factory=dict, repr=False)
    good: dict[str, bytes] = field(default_factory=dict, repr=False)
    bad: dict[str, bytes] = field(default_factory=dict, repr=False)
    checks: dict[str, bytes] = field(default_factory=dict, repr=False)
    refs: tuple[Reference, ...] = field(default=(), repr=False)
    graders: tuple[Grader, ...] = field(default=(), repr=False)
    expect_fire: ExpectFire | None = None
    judge_runs: int | None = None  # answers per judge grader; None: the run's --judge-runs
    good_meta: RefMeta = field(default_factory=RefMeta, repr=False)
    bad_meta: RefMeta = field(default_factory=RefMeta, repr=False)
    policy: AgentPolicy = field(default_factory=AgentPolicy)  # allowed tools, env, cell timeout, runs...
    turns: tuple[Turn, ...] = ()  # the user messages after prompt.md, in order
    history: History | None = None  # an earlier conversation the first turn continues
    mocks: Mocks | None = None  # MCP tools answered by stand-ins (mocks/<server>/<tool>.md)

    @property
    def prompts(self) -> tuple[str, ...]:
        """Every turn's user message, prompt.md's first."""
        return (self.prompt, *(t.prompt for t in self.turns))

    @property
    def resumes(self) -> bool:
        """Whether a cell needs an agent that can continue a conversation."""
        return bool(self.turns) or self.history is not None

    @property
    def has_references(self) -> bool:
        """Checks are proven by references, and so are graders (an open task's included)."""
        return self.kind != "open" or bool(self.graders)

    @property
    def scored(self) -> bool:
        """Whether the task's cells have something to pass: checks, or graders on an axis. An
        open task without such graders has none: its cells say nothing about correctness or
        safety and stay out of pass rates and verdicts."""
        return self.kind != "open" or bool(self.graded_axes)

    @property
    def graded_axes(self) -> tuple[str, ...]:
        """The axes (correct, safe) that a grader counted in the axes decides."""
        return tuple(a for a in AXES[::-1] if any(g.arm == "all" and g.axis == a for g in self.graders))

    @property
    def has_safety(self) -> bool:
        """Whether any test_safe*.py check decides the safe axis (else every cell is safe)."""
        return any("/" not in n and n.startswith("test_safe") and n.endswith(".py") for n in self.checks)

    @property
    def references(self) -> tuple[Reference, ...]:
        """good, bad and every refs/<name>, each with the verdict it must get."""
        if not self.has_references:
            return ()
        graded = self.graded_axes
        if self.kind == "open" and not graded:  # graders on the score only: no verdict to declare
            good_expect = bad_expect = Expect(correct=None, safe=None)
        elif self.kind == "open":  # no checks: the graders decide the axes
            good_expect = Expect(correct=True, safe=True)
            bad_expect = (
                Expect(correct=None, safe=False)
                if self.axis == "safe"
                else Expect(correct=False, safe=None if "safe" in graded else True)
            )
        else:
            good_expect = Expect(correct=True, safe=True)
            bad_expect = (
                Expect(correct=None, safe=False)
                if self.axis == "safe"
                else Expect(correct=False, safe=None if self.has_safety else True)
            )
        return (
            Reference("good", self.good, good_expect, meta=self.good_meta),
            Reference("bad", self.bad, bad_expect, meta=self.bad_meta),
            *self.refs,
        )

    def reference(self, which: str) -> dict[str, bytes]:
        """The files of reference `which` (good, bad or a refs/ name), relative to the workspace."""
        if which == "good":
            return self.good
        if which == "bad":
            return self.bad
        for ref in self.refs:
            if ref.name == which:
                return ref.files
        known = ", ".join(r.name for r in self.references)
        raise ValueError(f"task {self.id} has no reference {which!r} (known: {known})")

    def shortfalls(self) -> list[str]:
        """What the declared references lack against the suite's minimums, in words."""
        if not self.has_references:
            return []
        out = []
        if self.kind != "open":
            kinds = [r.expect.kind for r in self.references]
            unsafe = kinds.count("unsafe") + kinds.count("correct+unsafe")
            wanted = [
                (kinds.count("correct"), MIN_CORRECT, "correct"),
                (kinds.count("safe+incorrect"), MIN_SAFE_INCORRECT, "safe+incorrect"),
            ]
            if self.has_safety:
                wanted += [
                    (unsafe, MIN_UNSAFE, "unsafe in all"),
                    (kinds.count("correct+unsafe"), MIN_CORRECT_UNSAFE, "correct+unsafe"),
                ]
            out = [f"{have} {what} (needs {need})" for have, need, what in wanted if have < need]
        # Every grader is proven both ways: a reference it must pass and one it must fail.
        for g in self.graders:
            declared = [r.meta.graders[g.name] for r in self.references if g.name in r.meta.graders]
            missing = [w for w, v in (("passing", True), ("failing", False)) if v not in declared]
            if missing:
                out.append(f"grader {g.name}: no reference declares it {' or '.join(missing)}")
        return out

    def content_hash(self) -> str:
        """Hash of everything that defines the task, fixture included, for provenance."""
        h = hashlib.sha256()
        h.update(self.prompt.encode())
        for part in ("seed", "good", "bad", "checks"):
            for name, data in sorted(getattr(self, part).items()):
                h.update(f"{part}/{name}\0".encode())
                h.update(data)
        for ref in self.refs:
            h.update(f"{REFS_DIR}/{ref.name}={ref.expect.text()}\0".encode())
            for name, data in sorted(ref.files.items()):
                h.update(f"{REFS_DIR}/{ref.name}/{name}\0".encode())
                h.update(data)
        if self.fixture_path is not None:
            h.update(tree_hash(self.fixture_path).encode())
        for key in ("kind", "file", "fixture", "axis"):
            h.update(f"{key}={getattr(self, key)}\0".encode())
        # Only a task that declares graders hashes them, so every other task keeps its hash.
        if self.graders or self.expect_fire is not None:
            declared = {
                "graders": [g.describe() for g in self.graders],
                "expect_fire": self.expect_fire.describe() if self.expect_fire is not None else None,
                "references": {r.name: r.meta.describe() for r in self.references if not r.meta.empty},
            }
            h.update(json.dumps(declared, sort_keys=True, default=str).encode())
        # Only a task that sets a policy hashes it, so every other task keeps its hash.
        if not self.policy.empty:
            h.update(json.dumps(self.policy.describe(), sort_keys=True).encode())
        if self.judge_runs is not None:  # likewise: only a task that sets it
            h.update(f"judge_runs={self.judge_runs}\0".encode())
        if self.turns:  # and only a conversation, a continued one or one with mocks
            h.update(json.dumps([t.describe() for t in self.turns], sort_keys=True).encode())
        if self.history is not None:
            h.update(f"history/{self.history.name}\0".encode() + self.history.data)
        if self.mocks is not None:
            h.update(json.dumps(self.mocks.describe(), sort_keys=True).encode())
        return h.hexdigest()[:16]


def read_tree(root: Path) -> dict[str, bytes]:
    """Every regular file under root, keyed by its POSIX path relative to root, in the order of
    their paths' parts (as sorted pathlib paths); symlinks and __pycache__ are left out, and
    symlinked folders are not followed. One scandir per folder: no stat per file."""
    if not root.is_dir() or "__pycache__" in root.parts:
        return {}
    found: list[tuple[tuple[str, ...], str]] = []
    folders: list[tuple[tuple[str, ...], str]] = [((), str(root))]
    while folders:
        parts, folder = folders.pop()
        try:
            entries = list(os.scandir(folder))
        except PermissionError:  # as pathlib's glob: an unreadable folder lists nothing
            continue
        for entry in entries:
            if entry.is_symlink():
                continue
            here = (*parts, entry.name)
            if entry.is_dir():
                if entry.name != "__pycache__":
                    folders.append((here, entry.path))
            elif entry.is_file():
                found.append((here, entry.path))
    found.sort()
    out: dict[str, bytes] = {}
    for parts, path in found:
        with open(path, "rb") as fh:
            out["/".join(parts)] = fh.read()
    return out


def tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for name, data in read_tree(root).items():
        h.update(name.encode() + b"\0")
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()[:16]


def load_refs(
    folder: Path, kind: str, problem: Callable[[str], None], graders: tuple[Grader, ...] = ()
) -> tuple[Reference, ...]:
    """Every refs/<name>/ of a task folder; each problem is passed to problem()."""
    root = folder / REFS_DIR
    if not root.is_dir():
        return ()
    if kind == "open" and not graders:
        problem(f"{REFS_DIR}/: an open task without graders has no checks, so references would prove nothing")
        return ()
    names = tuple(g.name for g in graders)
    refs: list[Reference] = []
    for sub in sorted(p for p in root.iterdir() if not p.name.startswith((".", "_"))):
        where = f"{REFS_DIR}/{sub.name}/"
        if not sub.is_dir():
            problem(f"{where[:-1]}: expected a folder per reference (refs/<name>/{REF_FILE} + files)")
            continue
        if sub.name in ("good", "bad") or not sub.name.replace("-", "_").isidentifier():
            problem(f"{where}: reference name {sub.name!r} must be letters, digits, _ or - (not good/bad)")
            continue
        meta: dict[str, object] = {}
        try:
            meta = _toml_text((sub / REF_FILE).read_text(encoding="utf-8"))
        except FileNotFoundError:
            problem(f'{where}{REF_FILE}: missing (it declares the verdict, e.g. expect = "correct, unsafe")')
            continue
        except (ValueError, RecursionError) as exc:  # TOMLDecodeError and UnicodeDecodeError too
            problem(f"{where}{REF_FILE}: not valid TOML: {_toml_problem(exc)}")
            continue
        unknown = sorted(set(meta) - REF_KEYS)
        if unknown:
            problem(
                f"{where}{REF_FILE}: unknown key(s) {', '.join(unknown)} "
                f"(known: {', '.join(sorted(REF_KEYS))})"
            )
        ref_meta = parse_ref_meta(meta, sub, f"{where}{REF_FILE}", names, problem)
        expect_text, note = meta.get("expect"), meta.get("note", "")
        if expect_text is None and kind == "open":
            expect = Expect(None, None)  # no checks: the graders' outcomes are the declaration
        elif not isinstance(expect_text, str):
            problem(f"{where}{REF_FILE}: key 'expect' is missing or not a string (e.g. \"correct, unsafe\")")
            continue
        else:
            try:
                expect = Expect.parse(expect_text)
            except ValueError as exc:
                problem(f"{where}{REF_FILE}: key 'expect': {exc}")
                continue
        files = {n: d for n, d in read_tree(sub).items() if n != REF_FILE and n not in ref_meta.meta_files}
        if not files and kind != "open" and ref_meta.reply is None and not ref_meta.tool_calls:
            problem(f"{where}: has no files besides {REF_FILE} (the solution laid over seed/fixture)")
            continue
        blind = meta.get("blind", False)
        if not isinstance(blind, bool):
            problem(f"{where}{REF_FILE}: key 'blind' must be true or false, not {excerpt(blind)}")
            continue
        note = note if isinstance(note, str) else ""
        refs.append(Reference(sub.name, files, expect, note, meta=ref_meta, blind=blind))
    return tuple(refs)


def load_ref_meta(
    folder: Path, where: str, graders: tuple[Grader, ...], problem: Callable[[str], None]
) -> RefMeta:
    """good/ref.toml or bad/ref.toml: what the reference says and does, and its grader outcomes
    (its verdict is fixed: good is correct and safe, bad fails the task's axis)."""
    path = folder / REF_FILE
    if not path.is_file():
        return RefMeta()
    try:
        meta = _toml_text(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as exc:
        problem(f"{where}{REF_FILE}: not valid TOML: {_toml_problem(exc)}")
        return RefMeta()
    if "expect" in meta:
        problem(
            f"{where}{REF_FILE}: key 'expect' is not for {where} "
            "(good/ is correct and safe, bad/ fails 'axis')"
        )
    unknown = sorted(set(meta) - set(REF_META_KEYS) - {"expect"})
    if unknown:
        problem(f"{where}{REF_FILE}: unknown key(s) {', '.join(unknown)} (known: {', '.join(REF_META_KEYS)})")
    return parse_ref_meta(meta, folder, f"{where}{REF_FILE}", tuple(g.name for g in graders), problem)


def _reference_files(folder: Path, meta: RefMeta) -> dict[str, bytes]:
    """What good/ or bad/ lays into the workspace: every file but its declarations."""
    skip = {REF_FILE, *meta.meta_files}
    return {n: d for n, d in read_tree(folder).items() if n not in skip}


@dataclass(frozen=True)
class _Keys:
    """task.toml's plain keys, checked (a bad value is reported and replaced by its default)."""

    kind: str
    axis: str
    file: str | None
    tags: tuple[str, ...]
    timeout: float
    max_turns: int | None
    description: str


def _toml_text(text: str) -> dict[str, Any]:
    return tomllib.loads(text)


def _toml_problem(exc: BaseException) -> str:
    """What was wrong with a TOML file, in one bounded line: the parser's message, or what made
    it give up (nesting deep enough to exhaust the stack, an integer too long to convert)."""
    if isinstance(exc, RecursionError):
        return "it nests too deep to read"
    return " ".join(str(exc).split())[:200]


def _read_toml(folder: Path, bad: Problem) -> dict[str, object]:
    toml_path = folder / "task.toml"
    if not toml_path.is_file():
        bad("task.toml: missing (every task folder needs one)")
        return {}
    try:
        meta: dict[str, object] = _toml_text(toml_path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as exc:
        bad(f"task.toml: not valid TOML: {_toml_problem(exc)}")
        return {}
    unknown = sorted(set(meta) - KNOWN_KEYS)
    if unknown:
        bad(f"task.toml: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(KNOWN_KEYS))})")
    return meta


def _keys(meta: dict[str, object], bad: Problem) -> _Keys:
    kind = meta.get("kind", "surgical")
    if kind not in KINDS:
        bad(f"task.toml: key 'kind' is {excerpt(kind)}; expected one of {', '.join(KINDS)}")
    axis = meta.get("axis", "safe")
    if axis not in AXES:
        bad(f"task.toml: key 'axis' is {excerpt(axis)}; expected 'safe' or 'correct'")
    file = meta.get("file")
    if file is not None and (
        not isinstance(file, str) or not file or Path(file).is_absolute() or ".." in Path(file).parts
    ):
        bad(f"task.toml: key 'file' must be a relative path inside the workspace, not {excerpt(file)}")
        file = None
    tags = meta.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) and t.isidentifier() for t in tags):
        bad(f"task.toml: key 'tags' must be a list of identifiers (usable with -m), not {excerpt(tags)}")
        tags = []
    timeout = meta.get("timeout", DEFAULT_CHECK_TIMEOUT)
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not 0 < timeout <= MAX_CHECK_TIMEOUT  # nan and inf too
    ):
        bad(
            "task.toml: key 'timeout' must be a positive number of seconds, at most "
            f"{MAX_CHECK_TIMEOUT:g} (a day), not {excerpt(timeout)}"
        )
        timeout = DEFAULT_CHECK_TIMEOUT
    max_turns = meta.get("max_turns")
    if max_turns is not None and (
        isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1
    ):
        bad(f"task.toml: key 'max_turns' must be a positive integer, not {excerpt(max_turns)}")
        max_turns = None
    description = meta.get("description", "")
    if not isinstance(description, str):
        bad("task.toml: key 'description' must be a string")
        description = ""
    return _Keys(
        kind=str(kind),
        axis=str(axis),
        file=file if isinstance(file, str) else None,
        tags=tuple(tags),
        timeout=float(timeout),
        max_turns=max_turns if isinstance(max_turns, int) else None,
        description=description,
    )


def _fixture(meta: dict[str, object], kind: str, fixtures_dir: Path | None, bad: Problem) -> Path | None:
    fixture = meta.get("fixture")
    if kind != "fixture":
        if fixture is not None:
            bad(f"task.toml: key 'fixture' is only for kind = \"fixture\" (this task is {kind!r})")
        return None
    if not isinstance(fixture, str) or not fixture:
        bad("task.toml: kind = \"fixture\" needs key 'fixture' naming a folder under fixtures/")
    elif fixtures_dir is None or not (fixtures_dir / fixture).is_dir():
        bad(f"task.toml: key 'fixture' names {fixture!r}, but {fixtures_dir}/{fixture} does not exist")
    else:
        return (fixtures_dir / fixture).resolve()
    return None


def _prompt(folder: Path, bad: Problem) -> str:
    prompt_path = folder / "prompt.md"
    if not prompt_path.is_file():
        bad("prompt.md: missing (the prompt the agent gets)")
        return ""
    try:
        prompt = prompt_path.read_text(encoding="utf-8").strip()
    except UnicodeDecodeError as exc:
        bad(f"prompt.md: not UTF-8 text ({exc})")
        return ""
    if not prompt:
        bad("prompt.md: empty")
    return prompt


def _check_open_graded(folder: Path, keys: _Keys, graders: tuple[Grader, ...], bad: Problem) -> None:
    """An open task with graders proves them on references, and one of them decides its axis."""
    for name in ("good", "bad"):
        if not (folder / name).is_dir():
            bad(
                f"{name}/: missing (a task with graders proves them on references: {name}/{REF_FILE} "
                "with the reply, tool_calls and graders = {...} it must give)"
            )
    graded = [g.axis for g in graders if g.arm == "all" and g.axis in AXES]
    if graded and keys.axis in AXES and keys.axis not in graded:
        bad(
            f"task.toml: axis = {keys.axis!r} but no grader decides it (an open task has no checks; "
            f"give a grader axis = {keys.axis!r}, or set 'axis' to one a grader decides)"
        )


def _check_scored(
    keys: _Keys, good: dict[str, bytes], bad_ref: dict[str, bytes], checks: dict[str, bytes], bad: Problem
) -> None:
    """A task with checks has references on both sides, its main file, and a check per axis."""
    if not good:
        bad("good/: missing or empty (the reference solution that must pass)")
    if not bad_ref:
        bad(f"bad/: missing or empty (the reference that must fail on axis {keys.axis!r})")
    if keys.file is None and keys.kind == "surgical":
        bad("task.toml: kind = \"surgical\" needs key 'file' (the main deliverable)")
    elif keys.file is not None and good and keys.file not in good:
        bad(f"good/: has no {keys.file} (task.toml key 'file')")
    if not checks:
        bad("checks/: missing or empty (hidden test_correct*.py / test_safe*.py files)")
    elif keys.axis in AXES:
        wanted = "test_safe" if keys.axis == "safe" else "test_correct"
        if not any(Path(n).name.startswith(wanted) and "/" not in n for n in checks):
            bad(f"checks/: axis = {keys.axis!r} but there is no {wanted}*.py to decide it")


def _check_names(checks: dict[str, bytes], bad: Problem) -> None:
    for name in checks:
        base = Path(name).name
        if name.endswith(".py") and "/" not in name and base not in ("conftest.py", "__init__.py"):
            if not base.startswith(CHECK_PREFIXES):
                bad(f"checks/{name}: check files must be named test_correct*.py or test_safe*.py")


def _shared_checks(folder: Path, names: object, bad: Problem) -> dict[str, bytes]:
    """The modules task.toml's shared_checks names, from the tasks folder's _checks/, laid
    beside the task's own checks (one payload list, imported by the checks of many tasks)."""
    if names is None:
        return {}
    where = "task.toml: key 'shared_checks'"
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        bad(f"{where} must be a list of file names from {folder.parent / SHARED_CHECKS_DIR}")
        return {}
    out: dict[str, bytes] = {}
    for name in names:
        path = folder.parent / SHARED_CHECKS_DIR / name
        if "/" in name or not name.endswith(".py") or name.startswith(("test", "conftest")):
            bad(
                f"{where}: {excerpt(name)} must be a module name like payloads.py (not a test file or a path)"
            )
        elif (folder / "checks" / name).exists():
            bad(f"{where}: {excerpt(name)} is also in checks/ (one of them would hide the other)")
        elif not path.is_file():
            bad(f"{where}: {excerpt(name)} is not a file of {path.parent}")
        else:
            out[name] = path.read_bytes()
    return out


def load_task(folder: Path, fixtures_dir: Path | None = None) -> Task:
    """Load one task folder or raise TaskError listing everything wrong with it."""
    problems: list[str] = []

    def bad(msg: str) -> None:
        problems.append(f"{folder}: {msg}")

    meta = _read_toml(folder, bad)
    keys = _keys(meta, bad)
    turns = parse_turns(meta.get("turns"), folder, bad)
    history = parse_history(meta.get("history"), folder, bad)
    mocks = load_mocks(folder, bad)
    graders = parse_graders(meta.get("graders"), folder, bad, turns=1 + len(turns))
    _check_until(turns, graders, bad)
    _check_mocked(graders, mocks, bad)
    expect_fire = parse_expect_fire(meta.get("expect_fire"), bad)
    judge_runs = parse_judge_runs(meta.get("judge_runs"), graders, bad)
    policy = parse_policy(meta, bad)
    fixture_path = _fixture(meta, keys.kind, fixtures_dir, bad)
    prompt = _prompt(folder, bad)
    good_meta = load_ref_meta(folder / "good", "good/", graders, bad)
    bad_meta = load_ref_meta(folder / "bad", "bad/", graders, bad)
    good = _reference_files(folder / "good", good_meta)
    bad_ref = _reference_files(folder / "bad", bad_meta)
    own_checks = read_tree(folder / "checks")
    checks = own_checks | _shared_checks(folder, meta.get("shared_checks"), bad)
    refs = load_refs(folder, keys.kind, bad, graders)
    for name, ref_meta in (("good/", good_meta), ("bad/", bad_meta), *((r.where, r.meta) for r in refs)):
        if len(ref_meta.turns) > len(turns):
            bad(
                f"{name}{REF_FILE}: key 'turns' declares {len(ref_meta.turns)} later turn(s); "
                f"the task has {len(turns)} (task.toml [[turns]])"
            )
    if keys.kind == "open" and graders:
        _check_open_graded(folder, keys, graders, bad)
    if keys.kind != "open":
        _check_scored(keys, good, bad_ref, checks, bad)
    _check_names(own_checks, bad)
    if problems:
        raise TaskError(problems)
    fixture = meta.get("fixture")
    return Task(
        id=folder.name,
        path=folder.resolve(),
        kind=keys.kind,
        prompt=prompt,
        file=keys.file,
        fixture=fixture if isinstance(fixture, str) else None,
        fixture_path=fixture_path,
        axis=keys.axis,
        tags=keys.tags,
        timeout=keys.timeout,
        description=keys.description,
        max_turns=keys.max_turns,
        seed=read_tree(folder / "seed"),
        good=good,
        bad=bad_ref,
        checks=checks,
        refs=refs,
        graders=graders,
        expect_fire=expect_fire,
        judge_runs=judge_runs,
        good_meta=good_meta,
        bad_meta=bad_meta,
        policy=policy,
        turns=turns,
        history=history,
        mocks=mocks,
    )


def _check_until(turns: tuple[Turn, ...], graders: tuple[Grader, ...], bad: Problem) -> None:
    """A turn played until a grader passes names a deterministic grader of the task (a judge
    would be paid for at every play)."""
    by_name = {g.name: g for g in graders}
    for turn in turns:
        if turn.until is None:
            continue
        where = f"task.toml: [[turns]] #{turn.number - 1} (turn {turn.number}): key 'until'"
        grader = by_name.get(turn.until)
        if grader is None:
            bad(
                f"{where}: {turn.until!r} is not a grader of the task (known: {', '.join(by_name) or 'none'})"
            )
        elif grader.type in JUDGE_TYPES:
            bad(
                f"{where}: {turn.until!r} is a judge ({grader.type}); a turn plays again until a "
                "deterministic grader passes (a judge would be asked and paid at every play)"
            )
        elif (read := getattr(grader, "turn", None)) is not None and read != turn.number:
            bad(
                f"{where}: {turn.until!r} reads turn {read}; it must read this turn or the whole conversation"
            )


def _check_mocked(graders: tuple[Grader, ...], mocks: Mocks | None, bad: Problem) -> None:
    """A grader of the mock calls needs mocks, and one of their calls names a mocked tool."""
    for g in graders:
        target = getattr(g, "target", None)
        if target != "mock_calls":
            continue
        where = f"task.toml: [[graders]] {g.name!r}: key 'target'"
        if mocks is None:
            bad(
                f"{where}: 'mock_calls' reads the calls of the task's mocked MCP tools, and it has no "
                "mocks/ folder (mocks/<server>/<tool>.md)"
            )
            continue
        patterns = [t for m in _matches(g) for t in m.tools]
        lost = [p for p in patterns if not any(fnmatch.fnmatchcase(name, p) for name in mocks.tools)]
        if lost:
            bad(
                f"{where}: 'mock_calls', but tool {lost[0]!r} names no mocked tool "
                f"(mocked: {', '.join(sorted(mocks.tools))})"
            )


def _matches(grader: Grader) -> list[CallMatch]:
    """The call matches of a tool grader (none for another type)."""
    if isinstance(grader, ToolOrderGrader):
        return list(grader.steps)
    if isinstance(grader, ToolUsedGrader | ToolAbsentGrader):
        return [grader.match]
    return []


def task_folders(tasks_dir: Path) -> list[Path]:
    return sorted(p for p in tasks_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def load_tasks(tasks_dir: Path, fixtures_dir: Path | None = None) -> list[Task]:
    """Load every task under tasks_dir; raise one TaskError with the problems of all folders."""
    if not tasks_dir.is_dir():
        raise TaskError([f"{tasks_dir}: tasks folder does not exist"])
    tasks: list[Task] = []
    problems: list[str] = []
    for folder in task_folders(tasks_dir):
        if not folder.name.replace("-", "_").isidentifier():
            problems.append(f"{folder}: task id {excerpt(folder.name)} must be letters, digits, _ or -")
            continue
        if (problem := name_problem(folder.name)) is not None:
            problems.append(f"{folder.parent}: task id {problem}")
            continue
        try:
            tasks.append(load_task(folder, fixtures_dir))
        except TaskError as exc:
            problems.extend(exc.problems)
    if problems:
        raise TaskError(problems)
    return tasks


def select(tasks: Iterable[Task], wanted: Iterable[str]) -> list[Task]:
    """Tasks whose id or one of whose tags is named in wanted; unknown names are an error."""
    names = [w for w in wanted if w]
    tasks = list(tasks)
    known = {t.id for t in tasks} | {tag for t in tasks for tag in t.tags}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise TaskError(
            [
                f"--tasks: unknown task id or tag {', '.join(map(repr, unknown))} "
                f"(known: {', '.join(sorted(known))})"
            ]
        )
    if not names:
        return tasks
    return [t for t in tasks if t.id in names or set(t.tags) & set(names)]
