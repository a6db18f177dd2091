"""An arm's files laid into the cell before its session starts: a CLAUDE.md into the workspace,
skills, agents, an output style or a user CLAUDE.md into the cell's own `~/.claude`.

Copies, never links to the host: a confined session reads its workspace and HOME and nothing of
the project, and a copy is also what a user of the arm would have installed. A plugin's folder
and an MCP config's folder are copied too, once per process into its private scratch, and bound
read-only (`sealed`): a plugin that is the repository ponybench runs in (`plugin = "."`) reaches
the cell as its content only, never its history, tasks, runs or anything else beside it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_ponybench.core.armparts import WORKSPACE, Part, content_files, copy_problems
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.isolation.scratch import session_dir

__all__ = ["COPY_IGNORE", "copy_folder", "lay_arm", "sealed"]

COPY_IGNORE = (".git", "__pycache__")


def _ignored(apart: tuple[Path, ...]) -> Any:
    """copytree's ignore: the VCS and cache folders, and the benchmark's own folders (a skills
    folder that is the repository holds the tasks and the run dirs)."""
    away = {os.path.realpath(a) for a in apart}
    usual = shutil.ignore_patterns(*COPY_IGNORE)

    def ignore(folder: str, names: list[str]) -> set[str]:
        return set(usual(folder, names)) | {
            n for n in names if os.path.realpath(os.path.join(folder, n)) in away
        }

    return ignore


def lay_arm(arm: Arm, workspace: Path, home: Path) -> dict[str, str]:
    """Copy the arm's placements; return {relpath: sha256} of the files laid into the workspace
    (they join the seeded base, so they never count as the agent's work)."""
    laid: dict[str, str] = {}
    for place in arm.placements():
        root = workspace if place.root == WORKSPACE else home
        dest = root / place.dest
        if place.root == WORKSPACE and dest.exists():
            # The plan refuses such a task for such an arm; a file seen here came from elsewhere.
            raise RuntimeError(
                f"the workspace already holds {place.dest}; the arm {arm.name!r} would replace it"
            )
        dest.parent.mkdir(parents=True, exist_ok=True)
        if place.source.is_dir():
            shutil.copytree(place.source, dest, symlinks=True, ignore=_ignored(place.apart))
        else:
            shutil.copyfile(place.source, dest)
        if place.root == WORKSPACE:
            files = [dest] if dest.is_file() else sorted(p for p in dest.rglob("*") if p.is_file())
            for f in files:
                laid[f.relative_to(workspace).as_posix()] = hashlib.sha256(f.read_bytes()).hexdigest()
    return laid


# (pid, kind, source folder, apart) -> its copy: made once per process (a forked worker makes its own).
_COPIES: dict[tuple[int, str, str, tuple[Path, ...]], Path] = {}


def copy_folder(source: Path, dest: Path, apart: tuple[Path, ...] = ()) -> None:
    """source's content (`armparts.content_files`) into dest: a link copied as the link, never
    followed; refused (RuntimeError) when it changed since the plan checked it."""
    if problem := copy_problems(source, apart):
        raise RuntimeError(problem)
    dest.mkdir(parents=True)
    for path in content_files(source, apart):
        target = dest / path.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink():
            os.symlink(os.readlink(path), target)
        else:
            shutil.copy2(path, target, follow_symlinks=False)


def _copy_of(kind: str, source: Path, apart: tuple[Path, ...]) -> Path:
    key = (os.getpid(), kind, str(source), apart)
    found = _COPIES.get(key)
    if found is not None and found.is_dir():
        return found
    # The folder's own name is kept (a plugin's hooks and an MCP config may name it).
    dest = session_dir() / "arms" / f"{kind}-{uuid.uuid4().hex[:8]}" / source.name
    if not source.is_dir():
        # Gone since the plan checked it: the cell gets a path that is not there either, and
        # the CLI reports the plugin it could not load (the cell is invalid, with its reason).
        return dest
    copy_folder(source, dest, apart)
    _COPIES[key] = dest
    return dest


def _moved(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str) and (value == old or value.startswith(old + "/")):
        return new + value[len(old) :]
    if isinstance(value, list):
        return [_moved(v, old, new) for v in value]
    return value


def _sealed_part(part: Part) -> Part:
    if part.path is None:
        return part
    if part.kind == "plugin":
        return replace(part, path=_copy_of("plugin", part.path, part.apart))
    if part.kind == "mcp":
        folder = part.path.parent
        copy = _copy_of("mcp", folder, ())
        config = json.loads(part.text or "{}")
        for server in config.get("mcpServers", {}).values():
            for key in ("command", "args"):
                if key in server:
                    server[key] = _moved(server[key], str(folder), str(copy))
        return replace(part, path=copy / part.path.name, text=json.dumps(config, sort_keys=True))
    return part


def sealed(arm: Arm) -> Arm:
    """The arm as a cell runs it: each plugin folder and MCP config folder replaced by a copy of
    its content in this process's scratch (bound read-only), the MCP config's paths moved into
    the copy. Its hash is still computed from the original (the cell's `arm`)."""
    if not any(p.kind in ("plugin", "mcp") for p in arm.parts):
        return arm
    return replace(arm, parts=tuple(_sealed_part(p) for p in arm.parts))
