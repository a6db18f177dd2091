"""A ponybench run timed from outside, for the scripts that compare it with another runner
(`bench_vs_cpe.py`, `bench_vs_seed.py`).

`scratch_project` writes a benchmark project with a timing conftest.py (the project's own
extension point, so the plugin is untouched) that stamps the controller's hooks; `run_pony`
runs pytest in it and returns the wall time, the CPU of the waited-for processes (`getrusage`
of the children, and of this process), the records, and where the time went (`pony_parts`).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

CONFTEST = '''\
"""Timing stamps of the controller, for the scripts/bench_vs_*.py scripts (not part of the benchmark)."""

import json
import os
import time

import pytest

STAMPS = {"conftest": time.time(), "collected": [], "ready": []}


def _controller(config):
    return not hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    STAMPS["configure_start"] = time.time()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    STAMPS["configure_end"] = time.time()  # nothing runs between the two
    if _controller(session.config):
        session.config.pluginmanager.register(_Innermost(), "bench-innermost")


@pytest.hookimpl(optionalhook=True)
def pytest_testnodeready(node):
    STAMPS["ready"].append(time.time())


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    STAMPS["collected"].append(time.time())


class _Innermost:
    """Around the plain sessionfinish hooks alone (xdist's, which ends the workers), inside
    ponybench's wrapper (summary.json, the report)."""

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_sessionfinish(self, session):
        STAMPS["workers_exit_start"] = time.time()
        yield
        STAMPS["workers_exit_end"] = time.time()


def pytest_runtest_logstart(nodeid, location):
    STAMPS.setdefault("first_cell", time.time())


def pytest_runtest_logreport(report):
    STAMPS["last_report"] = time.time()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_sessionfinish(session):
    STAMPS["finish_start"] = time.time()
    yield
    STAMPS["finish_end"] = time.time()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter):
    STAMPS["summary_start"] = time.time()
    yield
    STAMPS["summary_end"] = time.time()


def pytest_unconfigure(config):
    if _controller(config) and os.environ.get("BENCH_STAMPS"):
        with open(os.environ["BENCH_STAMPS"], "w") as out:
            json.dump(STAMPS, out)
'''


def scratch_project(root: Path) -> Path:
    """A benchmark project at root with the timing conftest, the shipped fixtures and an empty
    benchmarks/tasks/ for the caller to fill; the tasks folder is returned."""
    tasks = root / "benchmarks" / "tasks"
    tasks.mkdir(parents=True)
    shutil.copy(ROOT / "benchmarks" / "test_cells.py", root / "benchmarks" / "test_cells.py")
    shutil.copytree(ROOT / "fixtures", root / "fixtures")
    (root / "pyproject.toml").write_text(
        '[tool.ponybench]\ntasks = "benchmarks/tasks"\nfixtures = "fixtures"\nout = "runs"\n'
        "[tool.ponybench.arms]\nbaseline = {}\n"
    )
    (root / "conftest.py").write_text(CONFTEST)
    return tasks


def cpu_s() -> float:
    """CPU seconds of this process and of every child it waited for, so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def pre_flight(paid: bool, skip: bool) -> str:
    """What ponybench runs before its first cell, for a script's shape line."""
    if paid:
        return "with a paid run's pre-flight (--preflight)"
    if skip:
        return "with no pre-flight at all (--skip-preflight)"
    return "with an offline run's own pre-flight: each arm's activation check"


def preflight_args(paid: bool, skip: bool) -> list[str]:
    return ["--preflight"] if paid else ["--skip-preflight"] if skip else []


def activation_s(run: dict[str, Any]) -> float:
    """The sum of the wall times run.json records for the arms' activation checks. An offline
    run starts them on a thread of the controller while the workers start, at once up to one
    per core: with more than one arm the sum is more than the time they took together."""
    preflight = run.get("preflight") if isinstance(run.get("preflight"), dict) else {}
    checks = preflight.get("arms") if isinstance(preflight, dict) else None
    return sum(float(c.get("wall_s") or 0) for c in checks or [] if isinstance(c, dict))


def pony_parts(
    stamps: dict[str, Any],
    records: list[dict[str, Any]],
    t0: float,
    t_end: float,
    j: int,
    run: dict[str, Any] | None = None,
) -> dict[str, float]:
    def per_slot(key: str) -> float:
        return sum(float(r.get(key) or 0) for r in records) / j

    workers_done = max(stamps["collected"] or [stamps["configure_end"]])
    cells = stamps["last_report"] - stamps["first_cell"]
    sessions, scoring, waits = per_slot("wall_s"), per_slot("scorer_s"), per_slot("start_wait_s")
    finish = stamps["finish_end"] - stamps["finish_start"]
    workers_exit = stamps["workers_exit_end"] - stamps["workers_exit_start"]
    return {
        "start-up": stamps["conftest"] - t0,
        "configure (plan, pre-flight, run.json)": stamps["configure_end"] - stamps["configure_start"],
        "workers (spawn, import, collect)": workers_done - stamps["configure_end"],
        "the arms' activation checks (summed; beside the above)": activation_s(run or {}),
        "workers ready to the first cell": stamps["first_cell"] - workers_done,
        "cells": cells,
        "  of which claude sessions (sum / -j)": sessions,
        "  of which scoring (sum / -j)": scoring,
        "  of which start-slot waits (sum / -j)": waits,
        "  of which the rest (workspace, git, record)": cells - sessions - scoring - waits,
        "finish (summary.json, report)": finish - workers_exit,
        "  the workers' exit (beside ponybench's finish)": workers_exit,
        "terminal summary": stamps["summary_end"] - stamps["summary_start"],
        "exit": t_end - stamps["summary_end"],
    }


def _run_dirs(proj: Path) -> set[Path]:
    """The project's run dirs (runs/ also holds the run history, history.jsonl)."""
    runs = proj / "runs"
    return {p for p in runs.iterdir() if p.is_dir()} if runs.is_dir() else set()


@dataclass
class PonyRun:
    wall_s: float
    cpu_s: float
    parts: dict[str, float]
    records: list[dict[str, Any]]


def timed_env() -> dict[str, str]:
    """This process's environment for a timed run: no Claude or Anthropic settings, and
    bytecode written. An installed package has its bytecode (pip compiles it at install);
    without it the controller and every worker would compile ponybench's modules from source
    each run (about 2 s of CPU a process). The caller's untimed round writes the bytecode."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ANTHROPIC"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_pony(proj: Path, args: Sequence[str], j: int, log: Path, *, cache: bool = False) -> PonyRun:
    """`python -m pytest benchmarks -n J ARGS -p no:cacheprovider -q` in proj, timed; with
    `cache`, pytest's cache stays on (a user's later run: the arms' passed activation checks
    kept from the run before are said again, not run)."""
    stamps = log.with_suffix(".stamps.json")
    off = [] if cache else ["-p", "no:cacheprovider"]
    argv = [sys.executable, "-m", "pytest", "benchmarks", "-n", str(j), *args, *off, "-q"]
    env = {**timed_env(), "BENCH_STAMPS": str(stamps)}
    before = _run_dirs(proj)
    cpu0 = cpu_s()
    t0 = time.time()
    with log.open("wb") as out:
        subprocess.run(
            argv,
            cwd=proj,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=1800,
        )
    t_end = time.time()
    cpu = cpu_s() - cpu0
    made = _run_dirs(proj) - before
    if len(made) != 1 or not stamps.is_file():
        raise SystemExit(f"ponybench wrote no run dir or no timing stamps ({log})")
    (run_dir,) = made
    records = [
        json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines() if line.strip()
    ]
    run = json.loads((run_dir / "run.json").read_text())
    parts = pony_parts(json.loads(stamps.read_text()), records, t0, t_end, j, run)
    return PonyRun(t_end - t0, cpu, parts, records)


FLOOR_TEST = """\
import pytest


@pytest.mark.parametrize("i", range({n}))
def test_nothing(i):
    pass
"""


def pytest_floor(root: Path, tests: int, j: int) -> tuple[float, float]:
    """(wall, CPU) of plain `pytest -n J` running `tests` tests that do nothing, in a folder of
    their own under root, with the same plugins installed and the same environment as run_pony:
    what any runner built on pytest-xdist pays before and after its tests on this machine."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pytest.ini").write_text("[pytest]\n")
    (root / "test_floor.py").write_text(FLOOR_TEST.format(n=tests))
    argv = [sys.executable, "-m", "pytest", "test_floor.py", "-n", str(j), "-p", "no:cacheprovider", "-q"]
    env = timed_env()
    cpu0 = cpu_s()
    t0 = time.time()
    done = subprocess.run(argv, cwd=root, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    wall = time.time() - t0
    if done.returncode != 0:
        raise SystemExit(f"plain pytest -n {j} failed in {root}:\n{done.stdout.decode(errors='replace')}")
    return wall, cpu_s() - cpu0


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def median(xs: Sequence[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def spread(xs: Sequence[float], digits: int = 1) -> str:
    return f"{min(xs):.{digits}f}-{max(xs):.{digits}f}" if xs else "-"


def print_totals(
    name: str, walls: Sequence[tuple[float, float]], cpus: Sequence[tuple[float, float]]
) -> None:
    """The medians over the rounds with their spread and the ratios ponybench / the other
    runner, of the wall time and of the CPU; each pair is (the other runner's, ponybench's)."""
    for what, pairs in (("wall", walls), ("CPU", cpus)):
        other, pony = [a for a, _ in pairs], [b for _, b in pairs]
        ratios = [b / a for a, b in pairs]
        print(
            f"{what} (median of {len(pairs)} rounds): {name} {median(other):.1f} s ({spread(other)}), "
            f"ponybench {median(pony):.1f} s ({spread(pony)}), ratio ponybench/{name} "
            f"{median(ratios):.2f}x (rounds {min(ratios):.2f}-{max(ratios):.2f}; of the medians "
            f"{median(pony) / median(other):.2f}x)"
        )
    print(f"load after: {load()}")


def print_parts(title: str, parts: Sequence[dict[str, float]]) -> None:
    """Each part's median over the rounds, then its value in each round (an outlier round
    shows where its time went)."""
    print(f"  {title:<50} {'median':>6}   rounds")
    for key in parts[0] if parts else {}:
        each = " ".join(f"{p[key]:6.2f}" for p in parts)
        print(f"    {key:<46} {median([p[key] for p in parts]):6.2f}   {each}")


def settle_scratch(scratch: Path, failed: bool, keep: bool) -> None:
    """After a comparison: when it failed, the last log's end and the scratch kept to look at;
    else the scratch removed unless kept on purpose (`--keep`)."""
    if failed:
        logs = sorted(scratch.glob("r*.log"), key=lambda p: p.stat().st_mtime)
        if logs:
            tail = logs[-1].read_text(errors="replace").splitlines()[-25:]
            print(f"the last log, {logs[-1]}:", *tail, sep="\n  ", file=sys.stderr)
        print(f"kept {scratch} (logs, run dirs) to see what went wrong", file=sys.stderr)
    elif not keep:
        # A CLI may close the modes of what it keeps (CPE's failed runs' sandboxes).
        subprocess.run(["chmod", "-R", "u+rwX", str(scratch)], check=False)
        shutil.rmtree(scratch, ignore_errors=True)
