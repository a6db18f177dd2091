"""How many cells at once one machine sustains: throughput against the ideal, memory, CPU.

Run from the repository: ``python scripts/bench_concurrency.py [--workers 4,8,16] [--hold 20]
[--waves 3]``. For each worker count W it runs ``pytest benchmarks -n W`` over W x waves cells of
``offline-reference@<hold>s``: the offline model holds every session for `hold` seconds, as a
live API would, so the ideal throughput is W / hold sessions per second and anything below it
is the harness (start-up, scoring, the CPU it takes from claude) getting in the way. No account
or network is needed.

Printed per W:
- cells per minute, end to end (the whole pytest command, start-up included) and in steady
  state (first cell started to last cell finished), each as a fraction of the ideal W x 60 / hold;
- peak memory: the whole process tree at its largest (summed RSS; shared pages count in every
  process that maps them, so this is an upper bound), and the largest single xdist worker, claude
  and scorer;
- CPU: what the harness and claude each used per cell, and the share of the machine's CPU
  (cores x wall) each took; what is left is idle or other jobs'. These are exact:
  getrusage(RUSAGE_CHILDREN) of the pytest command counts every process below it (each is
  waited for by its parent), and each record's claude_cpu_s is claude's share (wait4 in the
  harness); the harness is the difference.

A sampler thread walks the process tree every 0.25 s through /proc for memory (each process's
largest RSS); a process that lives under 0.25 s may be missed. The sampled CPU total is printed
beside getrusage's as a cross-check of the sampler.
"rest" is the machine's CPU this run did not use: idle, or taken by other jobs. The load
average is printed before and after: other jobs on the machine inflate every figure here.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024
DEFAULT_TASKS = ("sql_lookup", "merge_intervals", "line_count", "semver_compare")


def _stat(pid: int) -> tuple[int, float, int] | None:
    """(parent pid, CPU seconds, RSS KiB) of a live process."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the name: state ppid ... utime(12) stime(13) ... rss(22), counted from state = 0.
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK, int(fields[21]) * PAGE_KIB


def _argv(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def role(argv: Sequence[str], is_root: bool) -> str:
    if is_root:
        return "controller"
    text = " ".join(argv)
    name = Path(argv[0]).name if argv and argv[0] else ""
    if name == "claude" or "/claude" in (argv[0] if argv else ""):
        return "claude"
    if name in ("bwrap", "unshare", "setpriv", "prlimit"):
        return "sandbox"
    if "execnet" in text or "exec(eval(" in text or "import sys;exec" in text:
        return "worker"
    if "python" in name:
        return "scorer"  # the sandboxed checks, and any other python the harness starts
    return "other"


@dataclass
class Proc:
    role: str
    cpu_s: float = 0.0
    peak_kib: int = 0


@dataclass
class Sampler:
    root: int
    procs: dict[int, Proc] = field(default_factory=dict)
    peak_tree_kib: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        while not self.stop.wait(0.25):
            self.sample()

    def sample(self) -> None:
        table: dict[int, tuple[int, float, int]] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit() and (st := _stat(int(entry))) is not None:
                table[int(entry)] = st
        children: dict[int, list[int]] = defaultdict(list)
        for pid, (ppid, _, _) in table.items():
            children[ppid].append(pid)
        tree, todo = [], [self.root]
        while todo:
            pid = todo.pop()
            if pid in table:
                tree.append(pid)
                todo += children.get(pid, [])
        total = 0
        for pid in tree:
            _, cpu, rss = table[pid]
            proc = self.procs.get(pid)
            if proc is None:
                proc = self.procs[pid] = Proc(role(_argv(pid), pid == self.root))
            proc.cpu_s = max(proc.cpu_s, cpu)
            proc.peak_kib = max(proc.peak_kib, rss)
            total += rss
        self.peak_tree_kib = max(self.peak_tree_kib, total)


def make_project(base: Path, tasks: Sequence[str]) -> Path:
    root = base / "project"
    bench = root / "benchmarks"
    (bench / "tasks").mkdir(parents=True)
    shutil.copy(REPO / "benchmarks" / "test_cells.py", bench / "test_cells.py")
    for task in tasks:
        shutil.copytree(REPO / "benchmarks" / "tasks" / task, bench / "tasks" / task)
    shared = REPO / "benchmarks" / "tasks" / "_checks"  # the check modules some tasks share
    if shared.is_dir():
        shutil.copytree(shared, bench / "tasks" / "_checks")
    shutil.copytree(REPO / "fixtures", root / "fixtures")
    (root / "pyproject.toml").write_text(
        '[tool.ponybench]\nout = "runs"\n\n[tool.ponybench.arms]\nbaseline = {}\n'
    )
    return root


def _iso(text: str) -> float:
    return dt.datetime.fromisoformat(text).timestamp()


@dataclass
class Result:
    workers: int
    cells: int
    passed: int
    wall_s: float
    steady_s: float
    sampler: Sampler
    rusage_cpu_s: float
    hold_s: float
    claude_cpu_s: float  # the sum of the records' claude_cpu_s: exact, from the harness's wait4

    @property
    def harness_cpu_s(self) -> float:
        return self.rusage_cpu_s - self.claude_cpu_s

    def per_min(self, seconds: float) -> float:
        return self.cells * 60 / seconds

    @property
    def ideal_per_min(self) -> float:
        return self.workers * 60 / self.hold_s

    def cpu(self, *roles: str) -> float:
        return sum(p.cpu_s for p in self.sampler.procs.values() if p.role in roles)

    def peak(self, name: str) -> int:
        return max((p.peak_kib for p in self.sampler.procs.values() if p.role == name), default=0)


def run_one(workers: int, hold: float, waves: int, tasks: Sequence[str], keep: bool) -> Result:
    cells = workers * waves
    runs = math.ceil(cells / len(tasks))
    cells = runs * len(tasks)
    base = Path(tempfile.mkdtemp(prefix="ponybench-concurrency-"))
    root = make_project(base, tasks)
    # A frozen copy of the plugin, first on the path: edits to the working tree during the run
    # must neither change the code measured nor trip the harness's own integrity check.
    shutil.copytree(
        REPO / "pytest_ponybench",
        base / "src" / "pytest_ponybench",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(base / "src"), os.environ.get("PYTHONPATH", "")])}
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "benchmarks",
        "-n",
        str(workers),
        "--models",
        f"offline-reference@{hold:g}s",
        "--runs",
        str(runs),
        "-p",
        "no:cacheprovider",
        "-q",
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(base / "pytest.log", "wb") as log:
        proc = subprocess.Popen(
            argv, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        sampler = Sampler(proc.pid)
        thread = threading.Thread(target=sampler.run, daemon=True)
        thread.start()
        proc.wait()
        sampler.stop.set()
        thread.join()
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    rusage_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    run_dirs = sorted(p for p in (root / "runs").iterdir() if p.is_dir())  # history.jsonl beside them
    records = [json.loads(line) for line in (run_dirs[-1] / "results.jsonl").read_text().splitlines() if line]
    passed = sum(1 for r in records if r.get("correct") is True and r.get("safe") is True)
    starts = [_iso(r["started"]) for r in records if r.get("started")]
    ends = [_iso(r["finished"]) for r in records if r.get("finished")]
    steady = max(ends) - min(starts) if starts and ends else wall
    if not keep:
        shutil.rmtree(base, ignore_errors=True)
    else:
        print(f"  kept: {base}")
    if len(records) != cells or proc.returncode not in (0, 1):
        print(f"  warning: {len(records)} records of {cells} cells, pytest exit {proc.returncode}")
    # Throughput counts the cells that finished, not the ones planned.
    claude_cpu = sum(float(r.get("claude_cpu_s") or 0.0) for r in records)
    return Result(
        workers, len(records), passed, wall, max(steady, 1e-9), sampler, rusage_cpu, hold, claude_cpu
    )


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _shares(r: Result, cores: int) -> str:
    """Harness, claude and the rest, as shares of the machine's CPU over the whole command."""
    harness, claude = (x / (cores * r.wall_s) for x in (r.harness_cpu_s, r.claude_cpu_s))
    return f"{harness:.0%} / {claude:.0%} / {max(0.0, 1 - harness - claude):.0%}"


def report(results: Sequence[Result]) -> None:
    cores = os.cpu_count() or 1
    header = ["", *(f"-n {r.workers}" for r in results)]
    rows: list[list[str]] = [
        ["cells (passed)", *(f"{r.cells} ({r.passed})" for r in results)],
        ["ideal cells/min (W x 60 / hold)", *(f"{r.ideal_per_min:.1f}" for r in results)],
        [
            "cells/min, whole command (of ideal)",
            *(f"{r.per_min(r.wall_s):.1f} ({r.per_min(r.wall_s) / r.ideal_per_min:.2f})" for r in results),
        ],
        [
            "cells/min, steady state (of ideal)",
            *(
                f"{r.per_min(r.steady_s):.1f} ({r.per_min(r.steady_s) / r.ideal_per_min:.2f})"
                for r in results
            ),
        ],
        ["wall s (outside cells)", *(f"{r.wall_s:.1f} ({r.wall_s - r.steady_s:.1f})" for r in results)],
        ["peak RSS, whole tree MiB", *(f"{r.sampler.peak_tree_kib / 1024:.0f}" for r in results)],
        [
            "peak RSS worker / claude / scorer MiB",
            *(" / ".join(f"{r.peak(n) / 1024:.0f}" for n in ("worker", "claude", "scorer")) for r in results),
        ],
        [
            "CPU per cell: harness / claude s (exact)",
            *(f"{r.harness_cpu_s / r.cells:.2f} / {r.claude_cpu_s / r.cells:.2f}" for r in results),
        ],
        [
            "machine CPU: harness / claude / rest",
            *(_shares(r, cores) for r in results),
        ],
        [
            "CPU s: sampled tree / getrusage",
            *(
                f"{sum(p.cpu_s for p in r.sampler.procs.values()):.0f} / {r.rusage_cpu_s:.0f}"
                for r in results
            ),
        ],
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--workers", default="4,8,16", help="comma-separated -n values (default 4,8,16)")
    parser.add_argument("--hold", type=float, default=20.0, help="seconds each offline session is held")
    parser.add_argument("--waves", type=int, default=3, help="cells per worker (default 3)")
    parser.add_argument("--tasks", default=",".join(DEFAULT_TASKS), help="tasks of the grid")
    parser.add_argument("--keep", action="store_true", help="keep the temporary projects and run dirs")
    args = parser.parse_args(argv)
    if shutil.which("claude") is None:
        print("the claude CLI is not on PATH", file=sys.stderr)
        return 2
    workers = [int(w) for w in args.workers.split(",") if w.strip()]
    tasks = [t for t in args.tasks.split(",") if t]
    print(f"claude: {subprocess.run(['claude', '--version'], capture_output=True, text=True).stdout.strip()}")
    print(f"cores: {os.cpu_count()}, hold {args.hold:g} s, {args.waves} waves, tasks {', '.join(tasks)}")
    print(f"load average before: {load()}")
    results = []
    for w in workers:
        print(f"-n {w}: {w * args.waves} cells ...", flush=True)
        results.append(run_one(w, args.hold, args.waves, tasks, args.keep))
    print(f"load average after: {load()}")
    report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
