"""Mutants: one edit of one file of a reference, with an id that survives unrelated edits, and
what became of a task's mutants.

A mutant's id is a hash of the reference, the file, the operator, the source lines it changes
(before and after, whitespace collapsed) and its rank among mutants with the same four. Only the
lines a reference adds (those that differ from the seed or fixture) are mutated, and test files
never.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pytest_ponybench.mutation.javascript import JS_SUFFIXES, TS_SUFFIXES, JsSyntaxError, js_edits, js_shape
from pytest_ponybench.mutation.python import edits, python_shape
from pytest_ponybench.mutation.source import Source

__all__ = [
    "ID_LENGTH",
    "Mutant",
    "TaskOutcome",
    "changed_lines",
    "is_javascript",
    "is_typescript",
    "is_mutated",
    "is_test_file",
    "mutant_id",
    "mutants_of",
]

ID_LENGTH = 10


@dataclass(frozen=True)
class Mutant:
    ref: str  # "good" or the name of a refs/ folder
    path: str  # the file inside the reference
    operator: str
    line: int
    before: str  # the source lines the edit touches
    after: str
    source: str = field(repr=False)  # the whole mutated file
    id: str = ""

    @property
    def where(self) -> str:
        folder = "good/" if self.ref == "good" else f"refs/{self.ref}/"
        return f"{folder}{self.path}:{self.line}"

    def describe(self) -> str:
        return f"{self.where} {self.operator}: {_squash(self.before)} -> {_squash(self.after)}"

    def diff(self) -> str:
        old = self.before.splitlines()
        new = self.after.splitlines()
        return "\n".join(
            line
            for line in difflib.unified_diff(old, new, lineterm="", n=0)
            if line[:1] in "-+" and line[:3] not in ("---", "+++")
        )


def _squash(text: str) -> str:
    return " ".join(text.split())


def mutant_id(ref: str, path: str, operator: str, before: str, after: str, rank: int) -> str:
    key = "\0".join((ref, path, operator, _squash(before), _squash(after), str(rank)))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:ID_LENGTH]


def mutants_of(
    ref: str, path: str, text: str, lines: Callable[[int, int], bool] | None = None
) -> list[Mutant]:
    """The mutants of one file (Python, or JavaScript by its suffix); with `lines`, only edits
    on lines it accepts (first, last)."""
    shape: Callable[[str], object]
    if is_javascript(path):
        shape = js_shape
        try:
            found = list(js_edits(text, typescript=is_typescript(path)))
        except JsSyntaxError:
            return []
    else:
        shape = python_shape
        try:
            found = list(edits(Source(text), ast.parse(text)))
        except SyntaxError:
            return []
    original = shape(text)
    source = Source(text)
    out: list[Mutant] = []
    seen: dict[tuple[str, str, str], int] = {}
    done: set[tuple[int, int, str]] = set()
    for edit in sorted(found, key=lambda e: (e.start, e.end, e.operator, e.text)):
        if (edit.start, edit.end, edit.text) in done:
            continue
        done.add((edit.start, edit.end, edit.text))
        first, last = source.line_of(edit.start), source.line_of(max(edit.start, edit.end - 1))
        if lines is not None and not lines(first, last):
            continue
        mutated = text[: edit.start] + edit.text + text[edit.end :]
        after_shape = shape(mutated)
        if after_shape is None or after_shape == original:
            continue  # not a program, or the edit changed nothing a program can see
        line_start = source.starts[first - 1]
        line_end = source.starts[last] if last < len(source.lines) else len(text)
        before = text[line_start:line_end]
        after = mutated[line_start : line_end + len(edit.text) - (edit.end - edit.start)]
        key = (edit.operator, _squash(before), _squash(after))
        rank = seen.get(key, 0)
        seen[key] = rank + 1
        out.append(
            Mutant(
                ref=ref,
                path=path,
                operator=edit.operator,
                line=first,
                before=before.rstrip("\n"),
                after=after.rstrip("\n"),
                source=mutated,
                id=mutant_id(ref, path, edit.operator, before, after, rank),
            )
        )
    return out


def is_javascript(path: str) -> bool:
    """JavaScript, or TypeScript (which the same mutator reads, its types left alone)."""
    return path.endswith(JS_SUFFIXES) or is_typescript(path)


def is_typescript(path: str) -> bool:
    return path.endswith(TS_SUFFIXES) and not path.endswith((".d.ts", ".d.mts", ".d.cts"))


def is_mutated(path: str) -> bool:
    """A source file the mutator reads (Python or JavaScript) that is not a test."""
    return (path.endswith(".py") or is_javascript(path)) and not is_test_file(path)


def changed_lines(base: str | None, text: str) -> Callable[[int, int], bool] | None:
    """Which lines of `text` differ from `base` (None: a new file, every line counts)."""
    if base is None:
        return None
    wanted: set[int] = set()
    matcher = difflib.SequenceMatcher(a=base.splitlines(), b=text.splitlines(), autojunk=False)
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            wanted.update(range(j1 + 1, j2 + 1))
    return lambda first, last: any(n in wanted for n in range(first, last + 1))


def is_test_file(path: str) -> bool:
    parts = path.split("/")
    name = parts[-1]
    return (
        "tests" in parts[:-1]
        or "test" in parts[:-1]
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
        or "__tests__" in parts[:-1]
        or re.search(r"\.(test|spec)\.[cm]?[jt]s$", name) is not None
    )


@dataclass
class TaskOutcome:
    """What became of one task's mutants: killed, survived, marked equivalent."""

    task: str
    mutants: list[Mutant]
    killed: int = 0
    survived: list[Mutant] = field(default_factory=list)
    equivalent: list[Mutant] = field(default_factory=list)
    killed_but_marked: list[Mutant] = field(default_factory=list)
    broken_refs: list[str] = field(default_factory=list)
    generated: int = 0
    seconds: float = 0.0

    @property
    def scored(self) -> int:
        return len(self.mutants) - len(self.equivalent)

    @property
    def rate(self) -> float:
        return self.killed / self.scored if self.scored else 1.0
