"""Writing into a user's project without ever overwriting: every write is a `Step` that says
what happened to one path (written, appended to, or found already there and left alone).
Nothing is written through a link: a file is appended to with O_NOFOLLOW, and a line is added
only to a file that is not a link."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_ponybench.errors import PonybenchError

__all__ = [
    "WROTE",
    "APPENDED",
    "EXISTS",
    "LineStep",
    "Step",
    "add_lines",
    "append",
    "copy_new_tree",
    "inside_root",
    "line_step",
    "write_new",
]

WROTE, APPENDED, EXISTS = "wrote", "appended", "exists"
_SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")


@dataclass(frozen=True)
class Step:
    """What one command did to one path (relative to the folder it worked in)."""

    path: str
    action: str  # WROTE | APPENDED | EXISTS
    what: str = ""  # what the path is for, in words


def _fail(path: Path, exc: OSError) -> PonybenchError:
    return PonybenchError(f"{path}: cannot be written: {exc.strerror or exc}")


def inside_root(
    root: Path, path: Path, rel: str, *, itself: bool = False, command: str = "ponybench init"
) -> None:
    """Refuse a path whose nearest existing folder has its real path outside root (resolved): a
    link there would carry the command's writes out of the repository. With `itself`, the
    path's own real path (a path that exists is otherwise never written: it is left as it is)."""
    probe = path if itself else path.parent
    while not (probe.exists() or probe.is_symlink()) and probe != probe.parent:
        probe = probe.parent
    real = Path(os.path.realpath(probe))
    if real != root and root not in real.parents:
        via = f" ({probe} is {real})" if real != probe else ""
        raise PonybenchError(
            f"{command}: {rel} would be written outside the repository {root}{via}; nothing was written"
        )


def write_new(path: Path, text: str, rel: str, what: str = "") -> Step:
    """Write text to path unless something is there (then leave it as it is); parents are made."""
    if path.exists() or path.is_symlink():
        return Step(rel, EXISTS, what)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as fh:  # "x": a file that appeared meanwhile is kept
            fh.write(text)
    except FileExistsError:
        return Step(rel, EXISTS, what)
    except OSError as exc:
        raise _fail(path, exc) from None
    return Step(rel, WROTE, what)


def copy_new_tree(source: Path, dest: Path, rel: str, what: str = "") -> Step:
    """Copy the folder source to dest unless dest exists (then it is left as it is, whole)."""
    if dest.exists() or dest.is_symlink():
        return Step(rel, EXISTS, what)
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, dest, ignore=_SKIP)
    except FileExistsError:
        return Step(rel, EXISTS, what)
    except OSError as exc:
        raise _fail(dest, exc) from None
    return Step(rel, WROTE, what)


def append(path: Path, text: str) -> None:
    """Append to a file, never through a link (O_NOFOLLOW: a link put there meanwhile fails)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:  # the file's own text stays byte for byte
            fh.write(text)
    except OSError as exc:
        raise _fail(path, exc) from None


@dataclass(frozen=True)
class LineStep:
    """What adding lines to a text file will do, decided before anything is written."""

    path: Path
    rel: str
    action: str  # WROTE (a new file) | APPENDED | EXISTS (its rule is there, or the file is a link)
    what: str
    text: str = ""  # what is written: the new file's text, or what is appended


def line_step(
    path: Path, rel: str, comment: str, rules: Sequence[tuple[str, Callable[[str], bool]]], what: str
) -> LineStep:
    """Plan to add each rule's line to the file at path (made when missing), under `comment`,
    unless a line of the file (stripped) already says it (the rule's test). A link is never
    written through: it is reported, with the lines to add by hand, and left alone."""
    lines = [line for line, _ in rules]
    if path.is_symlink():
        return LineStep(
            path, rel, EXISTS, f"a link: not written through; add {', '.join(lines)} to it yourself"
        )
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return LineStep(path, rel, WROTE, what, "".join(f"{line}\n" for line in [comment, *lines]))
    except OSError as exc:
        raise _fail(path, exc) from None
    have = [raw.decode("utf-8", "replace").strip() for raw in data.splitlines()]
    missing = [line for line, says in rules if not any(says(h) for h in have)]
    if not missing:
        return LineStep(path, rel, EXISTS, f"it has {', '.join(lines)} already")
    block = "".join(f"{line}\n" for line in [comment, *missing])
    return LineStep(path, rel, APPENDED, what, ("\n" if data and not data.endswith(b"\n") else "") + block)


def add_lines(step: LineStep) -> Step:
    """Carry out a `line_step` plan: the file written new, or appended to."""
    if step.action == WROTE:
        return write_new(step.path, step.text, step.rel, step.what)
    if step.action == APPENDED:
        append(step.path, step.text)
    return Step(step.rel, step.action, step.what)
