"""The harness's own CPU per cell, claude excluded, with the cold scorer and the warm one.

Run from the repository: ``python scripts/bench_cell_cpu.py [--small 8] [--large 32] [--workers 2]
[--scorers cold,warm] [--no-selftest]``.

For each scorer (``PONYBENCH_SCORER=cold``, then the default warm one) it runs the same offline
grid twice, with few cells and with many: ``pytest benchmarks -n W --models offline-reference``
over four tasks. Every process of a run is waited for by its parent (xdist workers, the warm
scorer, claude under bubblewrap, git, the checks), so ``os.wait4`` on the pytest command gives
the CPU of the whole tree exactly, with no sampling. Each record carries ``claude_cpu_s`` (the
claude process and all it started, from wait4 in the harness) and ``scorer_cpu_s``. So:

- harness CPU of a run = tree CPU - the sum of ``claude_cpu_s``;
- harness CPU per cell = (harness CPU of the large run - of the small run) / (cells added): the
  slope, which leaves out what a run pays once (start-up, workers, pre-flight, the report);
- the fixed part = the small run's harness CPU - its cells x the slope.

It also times ``pytest --selftest-only -n W`` with each scorer. The load average is printed:
other jobs on the machine make claude and the harness slower alike, so compare the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench_concurrency import DEFAULT_TASKS, REPO, make_project


@dataclass
class Run:
    cells: int
    passed: int
    tree_cpu_s: float
    claude_cpu_s: float
    scorer_cpu_s: float
    wall_s: float

    @property
    def harness_cpu_s(self) -> float:
        return self.tree_cpu_s - self.claude_cpu_s


def _wait_cpu(argv: Sequence[str], cwd: Path, env: dict[str, str], log: Path) -> tuple[float, float, int]:
    """(CPU of the command and every process below it, wall seconds, exit status)."""
    start = time.monotonic()
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, time.monotonic() - start, proc.returncode


def grid(scorer: str, cells: int, workers: int, base: Path) -> Run:
    runs = max(1, cells // len(DEFAULT_TASKS))
    root = make_project(base / f"{scorer}-{cells}", DEFAULT_TASKS)
    # A frozen copy of the plugin, first on the path: an edit of the working tree meanwhile
    # must neither change what is measured nor trip the harness's integrity check.
    src = base / "src" / "pytest_ponybench"
    if not src.exists():
        shutil.copytree(REPO / "pytest_ponybench", src, ignore=shutil.ignore_patterns("__pycache__"))
    path = os.pathsep.join([str(src.parent), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PONYBENCH_SCORER": scorer, "PYTHONPATH": path}
    argv = [sys.executable, "-m", "pytest", "benchmarks", "-n", str(workers), "-p", "no:cacheprovider", "-q"]
    argv += ["--models", "offline-reference", "--runs", str(runs)]
    cpu, wall, code = _wait_cpu(argv, root, env, root / "pytest.log")
    run_dir = sorted(p for p in (root / "runs").iterdir() if p.is_dir())[-1]  # history.jsonl beside them
    records = [json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines() if x.strip()]
    if code not in (0, 1) or len(records) != runs * len(DEFAULT_TASKS):
        sys.exit(
            f"{scorer} run of {cells} cells: exit {code}, {len(records)} records; see {root / 'pytest.log'}"
        )
    return Run(
        cells=len(records),
        passed=sum(1 for r in records if r.get("correct") is True and r.get("safe") is True),
        tree_cpu_s=cpu,
        claude_cpu_s=sum(float(r.get("claude_cpu_s") or 0.0) for r in records),
        scorer_cpu_s=sum(float(r.get("scorer_cpu_s") or 0.0) for r in records),
        wall_s=wall,
    )


def selftest(scorer: str, workers: int, base: Path) -> tuple[float, float, int]:
    env = {**os.environ, "PONYBENCH_SCORER": scorer}
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "--selftest-only",
        "-n",
        str(workers),
        "-p",
        "no:cacheprovider",
        "-q",
    ]
    return _wait_cpu(argv, REPO, env, base / f"selftest-{scorer}.log")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=8, help="cells in the small run")
    parser.add_argument("--large", type=int, default=32, help="cells in the large run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the projects and run dirs")
    parser.add_argument(
        "--scorers", default="cold,warm", help="which scorers to measure (cold, warm or both)"
    )
    parser.add_argument(
        "--no-selftest", action="store_true", help="leave out the selftest (minutes on a busy machine)"
    )
    args = parser.parse_args(argv)
    scorers = [x for x in args.scorers.split(",") if x]
    if not scorers or any(x not in ("cold", "warm") for x in scorers):
        parser.error(f"--scorers: cold, warm or cold,warm, not {args.scorers!r}")
    if shutil.which("claude") is None:
        sys.exit("the claude CLI is not on PATH")
    base = Path(tempfile.mkdtemp(prefix="ponybench-cellcpu-"))
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows: dict[str, list[str]] = {}
    for scorer in scorers:
        small = grid(scorer, args.small, args.workers, base)
        large = grid(scorer, args.large, args.workers, base)
        test_cpu, test_wall, code = (
            (0.0, 0.0, 0) if args.no_selftest else selftest(scorer, args.workers, base)
        )
        added = large.cells - small.cells
        slope = (large.harness_cpu_s - small.harness_cpu_s) / added
        rows[scorer] = [
            f"{small.cells} / {large.cells} ({small.passed + large.passed} passed)",
            f"{small.tree_cpu_s:.1f} / {large.tree_cpu_s:.1f} s",
            f"{small.claude_cpu_s:.1f} / {large.claude_cpu_s:.1f} s",
            f"{(large.claude_cpu_s - small.claude_cpu_s) / added:.2f} s",
            f"**{slope:.2f} s**",
            f"{large.scorer_cpu_s / large.cells:.2f} s",
            f"{slope - large.scorer_cpu_s / large.cells:.2f} s",
            f"{small.harness_cpu_s - small.cells * slope:.1f} s",
            f"{small.wall_s:.1f} / {large.wall_s:.1f} s",
            "-"
            if args.no_selftest
            else f"{test_wall:.1f} s, {test_cpu:.1f} s CPU" + ("" if code == 0 else f" (exit {code})"),
        ]
    labels = [
        "cells, small / large run",
        "CPU of the whole process tree",
        "claude's CPU (sum of `claude_cpu_s`)",
        "claude's CPU per cell",
        "**harness CPU per cell** (slope, claude excluded)",
        "of which the checks (`scorer_cpu_s` per cell)",
        "of which the rest (seeding, git, confinement, records, xdist)",
        "harness CPU once per run (start-up, workers, report)",
        "wall time, small / large run",
        f"`pytest --selftest-only -n {args.workers}`",
    ]
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| | " + " | ".join(f"{x} scorer" for x in scorers) + " |\n|---" + "|---" * len(scorers) + "|")
    for i, label in enumerate(labels):
        print(f"| {label} | " + " | ".join(rows[x][i] for x in scorers) + " |")
    if args.keep:
        print(f"\nkept: {base}")
    else:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
