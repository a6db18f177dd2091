"""What run.json says about where a run's numbers came from, so runs stay comparable: the
`RunInfo` of this session (store/runinfo.py writes it)."""

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
from pytest_ponybench.core.runs import Runs
from pytest_ponybench.core.tasks import Task, tree_hash
from pytest_ponybench.roles.config import RECORDED, Settings
from pytest_ponybench.store.runinfo import ArmInfo, GitState, Harness, Options, PartInfo, RunInfo

__all__ = ["arm_info", "envelope", "git_info", "module_version", "provenance", "recorded_options"]


def module_version(module: str) -> str | None:
    try:
        mod = __import__(module)
    except ImportError:
        return None
    return str(getattr(mod, "__version__", None))


def git_info(path: Path) -> GitState:
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
        return GitState()
    return GitState(sha, bool(git("status", "--porcelain", "--", ".")))


def _cgroup(name: str) -> str | None:
    try:
        return (Path("/sys/fs/cgroup") / name).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None


def _gib(n_bytes: float) -> float:
    return round(n_bytes / 2**30, 1)


def envelope(workers: str | None) -> dict[str, Any]:
    """The resources this run had, as far as this process can tell (cgroup v2; None where there
    is no limit or no way to read it): what moves a benchmark's figures besides the arm."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    quota = None
    if (cpu_max := _cgroup("cpu.max")) is not None and not cpu_max.startswith("max"):
        limit, _, period = cpu_max.partition(" ")
        try:
            quota = round(int(limit) / int(period or 100000), 2)
        except ValueError:
            quota = None
    memory = None
    try:
        memory = _gib(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError):
        pass
    mem_max = _cgroup("memory.max")
    limit_gib = _gib(int(mem_max)) if mem_max is not None and mem_max.isdigit() else None
    return {
        "cpus": cpus,
        "cpu_quota": quota,
        "memory_gib": memory,
        "memory_limit_gib": limit_gib,
        "workers": workers,
    }


def recorded_options(settings: Settings, arms: list[Arm], runs: Runs, judge_model: str) -> Options:
    """run.json's options: every option OPTIONS marks as recorded, by its record key, each from
    its setting; the arms that ran (the selected and added ones, baseline first), the runs as
    resolved (the tasks' own included) and the judge asked (given or by default) from the plan."""
    values: dict[str, Any] = {o.record: getattr(settings, str(o.setting)) for o in RECORDED if o.record}
    values.update(arms=tuple(a.name for a in arms), runs=runs, judge_model=judge_model)
    return Options(**values)


def arm_info(arm: Arm) -> ArmInfo:
    """An arm as run.json describes it (`Arm.describe`), with a plugin's git state."""
    desc = arm.describe()
    parts = tuple(
        PartInfo(p["kind"], p["value"], p["hash"], tuple(p.get("names", ()))) for p in desc["parts"]
    )
    return ArmInfo(
        name=arm.name,
        kind=desc["kind"],
        hash=desc["hash"],
        plugin_dir=desc["plugin_dir"],
        prompt=desc["prompt"],
        settings=desc["settings"],
        parts=parts,
        git=git_info(arm.plugin_dir) if arm.plugin_dir else None,
    )


def provenance(
    settings: Settings,
    arms: list[Arm],
    tasks: list[Task],
    grid: list[str],
    claude_version: str | None,
    options: Options,
) -> RunInfo:
    return RunInfo(
        harness=Harness(__version__, git_info(PACKAGE_ROOT)),
        project=git_info(settings.root),
        claude_version=claude_version,
        python=platform.python_version(),
        pytest=pytest.__version__,
        xdist=module_version("xdist"),
        platform=platform.platform(),
        envelope=envelope(settings.xdist_workers),
        argv=tuple(sys.argv),
        cwd=os.getcwd(),
        options=options,
        arms=tuple(arm_info(a) for a in arms),
        tasks={t.id: t.content_hash() for t in tasks},
        fixtures={
            t.fixture: tree_hash(t.fixture_path) for t in tasks if t.fixture and t.fixture_path is not None
        },
        grid=tuple(grid),
    )
