"""What run.json says about where a run's numbers came from, so runs stay comparable."""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench import __version__
from pytest_ponybench._util import gitcmd
from pytest_ponybench._util.paths import PACKAGE_ROOT
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.tasks import Task, tree_hash
from pytest_ponybench.roles.config import RECORDED, Settings

__all__ = ["git_info", "module_version", "provenance", "recorded_options"]


def module_version(module: str) -> str | None:
    try:
        mod = __import__(module)
    except ImportError:
        return None
    return str(getattr(mod, "__version__", None))


def git_info(path: Path) -> dict[str, Any]:
    """SHA and dirty flag of the git checkout holding path (None outside one), read with
    gitcmd's clean environment: a GIT_DIR a hook exported does not stand in for it."""

    def git(*args: str) -> str | None:
        try:
            done = gitcmd.run(path, *args)
        except gitcmd.GitError:
            return None
        return done.stdout.decode("utf-8", "replace").strip() if done.returncode == 0 else None

    sha = git("rev-parse", "HEAD")
    if sha is None:
        return {"git_sha": None, "git_dirty": None}
    return {"git_sha": sha, "git_dirty": bool(git("status", "--porcelain", "--", "."))}


def recorded_options(settings: Settings, arms: list[Arm]) -> dict[str, Any]:
    """run.json's options: every option OPTIONS marks as recorded, by its record key. The arms
    are the ones that ran (the selected and added ones, baseline first), by name."""
    out = {o.record: getattr(settings, str(o.setting)) for o in RECORDED if o.record is not None}
    out["arms"] = [a.name for a in arms]
    return out


def provenance(
    settings: Settings, arms: list[Arm], tasks: list[Task], grid: list[str], claude_version: str | None
) -> dict[str, Any]:
    return {
        "harness": {"version": __version__, **git_info(PACKAGE_ROOT)},
        "project": git_info(settings.root),
        "claude_version": claude_version,
        "python": platform.python_version(),
        "pytest": pytest.__version__,
        "xdist": module_version("xdist"),
        "platform": platform.platform(),
        "argv": sys.argv,
        "cwd": os.getcwd(),
        "options": recorded_options(settings, arms),
        "arms": [{**a.describe(), **(git_info(a.plugin_dir) if a.plugin_dir else {})} for a in arms],
        "tasks": {t.id: t.content_hash() for t in tasks},
        "fixtures": {
            t.fixture: tree_hash(t.fixture_path) for t in tasks if t.fixture and t.fixture_path is not None
        },
        "grid": grid,
    }
