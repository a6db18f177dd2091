"""The grader types: one entry each, found by the `type` a [[graders]] table names.

Shaped like inspect_ai's scorer registry (`registry_add`, then a lookup by name): a grader type
is a `GraderType` -- its own task.toml keys, its parser (which checks them) and whether it is a
judge -- so config.py looks a type up instead of branching on it, and whatever lists the types
(the error that names them, what counts as judged) reads this table.

The built-in types are each module's `GRADER_TYPES` tuple (deterministic, model_graded), in
that order; `register` adds one more (a plugin's, a test's) after them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from pytest_ponybench.core.graders.outcome import Grader
    from pytest_ponybench.core.graders.table import Table

__all__ = [
    "GraderType",
    "JUDGE_TYPES",
    "Parse",
    "TYPES",
    "TypeNames",
    "grader_types",
    "lookup",
    "register",
    "registered",
    "unregister",
]

# (the table, the common keys already read: name, axis, weight, arm; the task folder) -> the
# grader, or None once a problem is reported through the table.
Parse = Callable[["Table", dict[str, Any], Path], "Grader | None"]


@dataclass(frozen=True)
class GraderType:
    """One grader type: `type = "<name>"` in task.toml, the keys it adds to the common ones,
    how a table becomes its grader, and whether it asks the judge (model-graded)."""

    name: str
    keys: tuple[str, ...]
    parse: Parse
    judge: bool = False


_ADDED: dict[str, GraderType] = {}


def _builtins() -> tuple[GraderType, ...]:
    # Deferred: the type modules import what they need from this package's lighter modules.
    from pytest_ponybench.core.graders import deterministic, model_graded

    return deterministic.GRADER_TYPES + model_graded.GRADER_TYPES


def grader_types() -> Mapping[str, GraderType]:
    """Every type by name: the built-in ones in order, then those registered."""
    table = {t.name: t for t in _builtins()}
    table.update((name, t) for name, t in _ADDED.items() if name not in table)
    return table


def lookup(name: object) -> GraderType | None:
    return grader_types().get(name) if isinstance(name, str) else None


def register(kind: GraderType) -> GraderType:
    """Add a type; a name already taken (built in or registered) is refused."""
    if kind.name in grader_types():
        raise ValueError(f"grader type {kind.name!r} is already registered")
    _ADDED[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    """Remove a registered type (built-in types stay)."""
    _ADDED.pop(name, None)


@contextmanager
def registered(kind: GraderType) -> Iterator[GraderType]:
    """A type registered for the length of a with block."""
    register(kind)
    try:
        yield kind
    finally:
        unregister(kind.name)


class TypeNames(Sequence[str]):
    """The type names as a live tuple: read from the registry each time it is used, so a type
    registered later is listed (and counted as a judge) like a built-in one."""

    def __init__(self, *, judge_only: bool = False) -> None:
        self._judge_only = judge_only

    def _names(self) -> tuple[str, ...]:
        return tuple(n for n, t in grader_types().items() if t.judge or not self._judge_only)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __repr__(self) -> str:
        return repr(self._names())


TYPES = TypeNames()
JUDGE_TYPES = TypeNames(judge_only=True)
