"""One [[graders]] table read key by key: typed getters that report each bad key once.

Every grader type's parser (registry.GraderType.parse) reads its keys through a `Table`, so a
bad key reads the same whichever type it belongs to: `task.toml: [[graders]] #N 'name': key
'k' ...`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

__all__ = ["Problem", "Table", "bounds", "inside", "is_count", "is_number"]

Problem = Callable[[str], None]


def is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def is_count(value: object) -> bool:
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


class Table:
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
        if value is not None and not is_count(value):
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


def bounds(t: Table, default_min: int | None) -> tuple[int | None, int | None]:
    lo, hi = t.count("min"), t.count("max")
    lo = default_min if lo is None and "min" not in t.table else lo
    if lo is not None and hi is not None and lo > hi:
        t.problem("min", f"({lo}) is greater than 'max' ({hi})")
    return lo, hi
