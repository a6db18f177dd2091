"""An arm's files laid into the cell before its session starts: a CLAUDE.md into the workspace,
skills, agents, an output style or a user CLAUDE.md into the cell's own `~/.claude`.

Copies, never links to the host: a confined session reads its workspace and HOME and nothing of
the project, and a copy is also what a user of the arm would have installed.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from pytest_ponybench.core.armparts import WORKSPACE
from pytest_ponybench.core.arms import Arm

__all__ = ["COPY_IGNORE", "lay_arm"]

COPY_IGNORE = (".git", "__pycache__")


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
            shutil.copytree(place.source, dest, symlinks=True, ignore=shutil.ignore_patterns(*COPY_IGNORE))
        else:
            shutil.copyfile(place.source, dest)
        if place.root == WORKSPACE:
            files = [dest] if dest.is_file() else sorted(p for p in dest.rglob("*") if p.is_file())
            for f in files:
                laid[f.relative_to(workspace).as_posix()] = hashlib.sha256(f.read_bytes()).hexdigest()
    return laid
