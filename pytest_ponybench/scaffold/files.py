"""Writing into a user's project without ever overwriting: every write is a `Step` that says
what happened to one path (written, appended to, or found already there and left alone)."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from pytest_ponybench.errors import PonybenchError

__all__ = ["WROTE", "APPENDED", "EXISTS", "Step", "copy_new_tree", "inside_root", "write_new"]

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
