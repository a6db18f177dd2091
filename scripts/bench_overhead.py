"""What the pytest-ponybench harness costs on top of the claude process it runs, as ratios.

Run from anywhere: ``python scripts/bench_overhead.py [--cells N] [--workers W]``.
Every figure comes from one task (sql_lookup), one arm (baseline) and the offline model server
(offline-reference), so no account or network is needed. The script measures, in order:

1. **Bare claude**: N sessions of the CLI alone (the claude adapter's ``command``/``environment``/
   ``run_process``, exactly the command and environment a cell uses), each in a fresh temp
   workspace and home laid and git-snapshotted as a cell's would be (outside the timing), with
   max(1, W) sessions at once. Timed: ``run_process`` only. One untimed session first warms the
   page cache for the CLI binary, so neither side pays the cold start.
2. **Pytest fixed overhead**: ``python -m pytest benchmarks --collect-only -q`` of the same grid
   (start-up, plugin, task loading, run dir, ``claude --version``), i.e. what a run costs before
   its first cell. xdist switches itself off under ``--collect-only``, so with W > 0 this leaves
   out the workers' own start-up; the script therefore also derives the fixed part from the run
   itself: whole wall minus the sum of the cell tests' durations / max(1, W), i.e. the time no
   worker slot spent inside a cell (start-up, worker spawn, collection, idle slots at the end,
   the summary).
3. **Full harness**: the same N cells through ``python -m pytest benchmarks ... --runs N``
   (``-n W`` when W > 0). Wall time of the whole command, and per cell from the run's own
   ``results.jsonl`` (``wall_s``: the claude process; ``scorer_s``: the sandboxed checks) and
   ``report.json`` (the test's setup + call + teardown).
4. **The selftest**: ``python -m pytest --selftest-only -q -p no:cacheprovider -n 2``.

Memory. A sampler thread walks the process tree under a root pid every 50 ms (parent links
from /proc/*/stat) and reads each process's VmHWM from /proc/<pid>/status: the kernel's own
high-water mark of that process's resident memory. A process's peak is its last VmHWM read, so
it is exact except for growth in its final < 50 ms; processes that live under 50 ms (git,
``claude --version``) may not be seen at all and are not reported. Peaks are per process, not
summed over a tree, and RSS counts shared pages (the CLI binary, Python's libraries) in every
process that maps them. Not used: ``getrusage(RUSAGE_CHILDREN).ru_maxrss`` (and ``os.wait4``
on the pytest process) is the peak of the *largest single descendant ever waited for*; pytest
waits for claude, so that figure would be claude's peak, not pytest's, and a delta of a maximum
says nothing. The sampler costs about 1 ms of CPU per tick (2 % of one core), on both sides.

Why ratios: absolute seconds and megabytes depend on the CPU, the disk cache, the claude
version and whatever else the machine is running; the harness and the bare CLI measured back
to back on the same machine share all of that, so "harness wall per cell / bare claude wall per
cell" and its siblings are the figures to compare across machines and commits. Offline, the
model answers instantly, so a cell is mostly claude's own start-up and tool loop: the
overhead ratio here is a worst case; against a live model (tens of seconds per session) the
same harness seconds are a much smaller fraction. Load from other jobs inflates both sides
but not equally; the script prints the load average before and after so a noisy run shows.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench._util import procs, textfiles
from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.claude import ClaudeCode
from pytest_ponybench.agents.process import run_process
from pytest_ponybench.core.arms import BASELINE
from pytest_ponybench.core.tasks import Task, load_tasks
from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.scoring import workspace

ROOT = Path(__file__).resolve().parent.parent
CLI = ClaudeCode()
TASK = "sql_lookup"
MODEL = "offline-reference"
CELL_TIMEOUT_S = 300.0  # the plugin's default --cell-timeout
MAX_TURNS = 30  # the plugin's default --max-turns
SAMPLE_S = 0.05
MIB = 1024.0

# ------------------------------------------------------------------ process-tree memory sampler


def _status_kib(pid: int, keys: Sequence[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                if key in keys:
                    out[key] = int(value.split()[0])
    except (OSError, ValueError, IndexError):
        pass
    return out


def classify(argv: Sequence[str], is_root: bool) -> str:
    """The role of a process in a harness run, from its command line."""
    if is_root:
        return "pytest"
    if not argv:
        return "other"
    line = " ".join(argv)
    if Path(argv[0]).name.startswith("claude"):
        return "claude"
    if "exec(eval(sys.stdin.readline()))" in line:
        return "xdist worker"
    if "ponybench_probe" in line or "The warm scorer" in line:
        return "scorer"
    return "other"


@dataclass
class ProcPeak:
    role: str
    hwm_kib: int = 0


class TreeSampler:
    """Per-process peak RSS (VmHWM) of every process under root, polled every SAMPLE_S."""

    def __init__(self, root: int, include_root: bool) -> None:
        self.root, self.include_root = root, include_root
        self.procs: dict[int, ProcPeak] = {}
        self.ticks = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="rss-sampler", daemon=True)

    def __enter__(self) -> TreeSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(SAMPLE_S)

    def sample(self) -> None:
        pids = procs.descendants(self.root, procs.processes())
        if self.include_root:
            pids.add(self.root)
        for pid in pids:
            hwm = _status_kib(pid, ("VmHWM",)).get("VmHWM")
            if hwm is None:
                continue
            peak = self.procs.get(pid)
            if peak is None:
                peak = self.procs[pid] = ProcPeak(classify(procs.cmdline(pid), pid == self.root))
            peak.hwm_kib = max(peak.hwm_kib, hwm)
        self.ticks += 1

    def peaks(self, role: str) -> list[int]:
        return [p.hwm_kib for p in self.procs.values() if p.role == role]


# ------------------------------------------------------------------ subprocesses, cleanly


_LIVE: set[subprocess.Popen[bytes]] = set()


def _kill_live() -> None:
    for proc in list(_LIVE):
        # The process, or after it exited anything it left in its group (a group id stays
        # reserved while the group has members, so this cannot hit a stranger).
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        _LIVE.discard(proc)


@dataclass
class Timed:
    wall_s: float
    returncode: int
    output: str
    sampler: TreeSampler | None = None


def timed_run(argv: Sequence[str], log: Path, sample: bool = False, timeout_s: float = 600.0) -> Timed:
    """Run argv from the repo root in its own process group, output to a file; wall time."""
    with open(log, "wb") as out:
        t0 = time.monotonic()
        proc = subprocess.Popen(
            list(argv),
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        _LIVE.add(proc)
        try:
            if sample:
                with TreeSampler(proc.pid, include_root=True) as sampler:
                    proc.wait(timeout=timeout_s)
            else:
                sampler = None
                proc.wait(timeout=timeout_s)
            wall = time.monotonic() - t0
        finally:
            _kill_live()  # a timeout or Ctrl-C leaves nothing behind
    return Timed(wall, proc.returncode, log.read_text(errors="replace"), sampler)


# ------------------------------------------------------------------ the phases


@dataclass
class Bare:
    wall_s: float  # the whole phase
    sessions_s: list[float]
    claude_peaks_kib: list[int]
    failures: list[str] = field(default_factory=list)


def bare_session(task: Task, server: OfflineServer, scratch: Path, name: str) -> tuple[float, str | None]:
    """One claude session as a cell runs it, minus the harness; (seconds of run_process, problem)."""
    ws, home, out = scratch / name / "workspace", scratch / name / "home", scratch / name / "out"
    out.mkdir(parents=True)
    workspace.lay(task, ws)
    workspace.snapshot(ws)  # claude sees the same git repo a cell's claude sees
    server.register(name, CellScript(workspace=ws, good=task.good, bad=task.bad))
    try:
        spec = SessionSpec(
            prompt=task.prompt,
            model=MODEL,
            home=home,
            max_turns=task.max_turns or MAX_TURNS,
            base_url=server.cell_url(name),
            offline=True,
            api_timeout_ms=int(min(CELL_TIMEOUT_S * 0.6, 120) * 1000),
        )
        run = run_process(
            CLI.command("claude", spec, BASELINE),
            cwd=ws,
            env=CLI.environment(spec),
            stdout=out / "claude.jsonl",
            stderr=out / "claude.stderr",
            timeout_s=CELL_TIMEOUT_S,
        )
    finally:
        server.unregister(name)
    found = CLI.invalid(CLI.parse(out / "claude.jsonl"), run, textfiles.quote_file(out / "claude.stderr"))
    problem = None if found is None else found.message
    if problem is None and not (ws / (task.file or "")).is_file():
        problem = f"the session wrote no {task.file}"
    shutil.rmtree(scratch / name, ignore_errors=True)
    return run.wall_s, problem


def run_bare(task: Task, cells: int, parallel: int, scratch: Path) -> Bare:
    with OfflineServer() as server:
        _, problem = bare_session(task, server, scratch, "warmup")  # untimed: warm caches
        if problem:
            raise SystemExit(f"bench_overhead: the bare claude warm-up failed: {problem}")
        pool = ThreadPoolExecutor(max_workers=parallel)
        try:
            with TreeSampler(os.getpid(), include_root=False) as sampler:
                t0 = time.monotonic()
                futures = [
                    pool.submit(bare_session, task, server, scratch, f"bare-{i}") for i in range(cells)
                ]
                results = [f.result() for f in futures]
                wall = time.monotonic() - t0
        finally:  # on Ctrl-C or SIGTERM: start no more sessions, let the running ones end
            pool.shutdown(wait=True, cancel_futures=True)
    return Bare(wall, [r[0] for r in results], sampler.peaks("claude"), [p for _, p in results if p])


def pytest_grid(cells: int, workers: int, out: Path) -> list[str]:
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "benchmarks",
        "-p",
        "no:cacheprovider",
        "-q",
        "--tasks",
        TASK,
        "--models",
        MODEL,
        "--runs",
        str(cells),
        "--ponybench-out",
        str(out),
    ]
    return argv + (["-n", str(workers)] if workers > 0 else [])


def only_run_dir(out: Path) -> Path:
    dirs = [p for p in out.iterdir() if p.is_dir()]
    if len(dirs) != 1:
        raise SystemExit(f"bench_overhead: expected one run dir in {out}, found {dirs}")
    return dirs[0]


def cell_records(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / "results.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    return [json.loads(line) for line in lines if line.strip()]


def test_durations(run_dir: Path) -> list[float]:
    """setup + call + teardown of every cell test, from pytest-json-report's report.json."""
    path = run_dir / "report.json"
    if not path.exists():
        return []
    report = json.loads(path.read_text())
    return [
        sum(float((t.get(stage) or {}).get("duration") or 0.0) for stage in ("setup", "call", "teardown"))
        for t in report.get("tests", [])
        if "test_cell" in str(t.get("nodeid"))
    ]


def passed_count(output: str) -> int:
    found = re.findall(r"(\d+) passed", output)
    return int(found[-1]) if found else 0


# ------------------------------------------------------------------ report


def mean(xs: Sequence[float]) -> float:
    return statistics.fmean(xs) if xs else float("nan")


def mib(kib: float) -> str:
    return f"{kib / MIB:6.0f}" if kib == kib and kib > 0 else "     -"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b > 0 and a == a else "n/a"


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


@contextmanager
def phase(name: str) -> Iterator[None]:
    print(f"  {name} ...", end="", flush=True, file=sys.stderr)
    t0 = time.monotonic()
    yield
    print(f" {time.monotonic() - t0:.1f}s", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--cells", type=int, default=6, help="cells (= bare sessions) to run, default 6")
    ap.add_argument(
        "--workers",
        type=int,
        default=0,
        help="xdist workers for the harness run (0: no xdist) and parallel bare sessions",
    )
    args = ap.parse_args(argv)
    if args.cells < 1 or args.workers < 0:
        ap.error("--cells must be >= 1 and --workers >= 0")
    if shutil.which("claude") is None:
        ap.error("the claude CLI is not on PATH")
    cells, workers = int(args.cells), int(args.workers)
    task = next(
        (t for t in load_tasks(ROOT / "benchmarks" / "tasks", ROOT / "fixtures") if t.id == TASK), None
    )
    if task is None:
        raise SystemExit(f"bench_overhead: no task {TASK} under benchmarks/tasks")
    references = 2 * sum(
        t.has_references for t in load_tasks(ROOT / "benchmarks" / "tasks", ROOT / "fixtures")
    )
    load_start = load()
    print(
        f"bench_overhead: {cells} cells of {TASK} on {MODEL}, workers {workers}, "
        f"{os.cpu_count()} CPUs, load {load_start}",
        file=sys.stderr,
    )

    old_term = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    t_all = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="ponybench-bench-") as tmp:
            scratch = Path(tmp)
            with phase(f"bare claude, {cells} sessions, {max(1, workers)} at a time"):
                bare = run_bare(task, cells, max(1, workers), scratch / "bare")
            with phase("pytest --collect-only of the grid"):
                (scratch / "collect").mkdir()
                collect = timed_run(
                    [*pytest_grid(cells, workers, scratch / "collect"), "--collect-only"],
                    scratch / "collect.log",
                )
            with phase(f"pytest harness, {cells} cells"):
                (scratch / "harness").mkdir()
                harness = timed_run(
                    pytest_grid(cells, workers, scratch / "harness"), scratch / "harness.log", sample=True
                )
                run_dir = only_run_dir(scratch / "harness")
                records, durations = cell_records(run_dir), test_durations(run_dir)
            with phase("selftest -n 2"):
                selftest = timed_run(
                    [
                        sys.executable,
                        "-m",
                        "pytest",
                        "--selftest-only",
                        "-q",
                        "-p",
                        "no:cacheprovider",
                        "-n",
                        "2",
                    ],
                    scratch / "selftest.log",
                )
    finally:
        _kill_live()
        signal.signal(signal.SIGTERM, old_term)
    total = time.monotonic() - t_all

    problems = [f"bare claude: {p}" for p in bare.failures]
    # --collect-only of a benchmark grid exits 1 (its cells count as missing): judge the output.
    if not re.search(r"\d+ tests? collected", collect.output):
        problems.append(f"collect-only exited {collect.returncode}: {collect.output[-500:]}")
    if harness.returncode != 0:
        problems.append(f"harness run exited {harness.returncode}: {harness.output[-800:]}")
    if len(records) != cells or not all(r.get("valid") and r.get("correct") for r in records):
        problems.append(f"harness: {len(records)} records, expected {cells} valid correct cells")
    if selftest.returncode != 0:
        problems.append(f"selftest exited {selftest.returncode}: {selftest.output[-500:]}")

    sampler = harness.sampler
    assert sampler is not None
    claude_in = [float(r.get("wall_s") or 0.0) for r in records]
    scorer = [float(r.get("scorer_s") or 0.0) for r in records]
    cell_s = durations or [float(r.get("wall_s") or 0.0) + float(r.get("scorer_s") or 0.0) for r in records]
    bare_per_cell = bare.wall_s / cells
    harness_per_cell = harness.wall_s / cells
    marginal_per_cell = (harness.wall_s - collect.wall_s) / cells
    outside_cells = harness.wall_s - sum(cell_s) / max(1, workers)
    rest = mean(cell_s) - mean(claude_in) - mean(scorer)
    claude_bare_peak = max(bare.claude_peaks_kib, default=0)
    claude_h_peak = max(sampler.peaks("claude"), default=0)
    pytest_peak = max(sampler.peaks("pytest"), default=0)
    worker_peak = max(sampler.peaks("xdist worker"), default=0)
    scorer_peak = max(sampler.peaks("scorer"), default=0)
    selftest_tests = passed_count(selftest.output)

    def row(name: str, total_s: float | None, per_cell: float | None, rss: float = 0.0) -> str:
        t = f"{total_s:8.2f}" if total_s is not None else " " * 8
        p = f"{per_cell:8.2f}" if per_cell is not None else " " * 8
        return f"  {name:<46} {t}  {p}  {mib(rss)}"

    print(
        f"\npytest-ponybench harness overhead: {cells} cells of {TASK} x {MODEL}, "
        f"workers {workers} (bare: {max(1, workers)} sessions at a time), {os.cpu_count()} CPUs"
    )
    print(f"load average before {load_start}, after {load()}; script wall {total:.1f}s")
    print(f"\n  {'':<46} {'total s':>8}  {'per cell':>8}  {'peak MiB':>6}")
    print(row("bare claude (run_process only)", bare.wall_s, bare_per_cell, claude_bare_peak))
    print(row("  one session, mean", None, mean(bare.sessions_s)))
    print(row("harness: pytest run, whole command", harness.wall_s, harness_per_cell))
    print(row("  fixed: --collect-only of the same grid", collect.wall_s, None))
    print(row("  marginal: (run - fixed) / cells", None, marginal_per_cell))
    print(row(f"  fixed, from the run: wall - sum(cell tests)/{max(1, workers)}", outside_cells, None))
    print(row("  cell test (setup+call+teardown), mean", None, mean(cell_s)))
    print(row("    claude inside the cell (wall_s), mean", None, mean(claude_in), claude_h_peak))
    print(row("    scoring (scorer_s), mean", None, mean(scorer), scorer_peak))
    print(row("    rest: seed, git, parse, metrics, record", None, rest))
    print(row("  pytest controller process", None, None, pytest_peak))
    if workers > 0:
        print(
            row(
                f"  xdist worker process (max of {len(sampler.peaks('xdist worker'))})",
                None,
                None,
                worker_peak,
            )
        )
    print(row(f"selftest -n 2 ({selftest_tests} tests, {references} references)", selftest.wall_s, None))
    print(
        row(
            "  per reference (all tests incl. start-up)",
            None,
            selftest.wall_s / references if references else float("nan"),
        )
    )

    print("\nratios")
    print(
        f"  harness wall per cell / bare claude wall per cell     {ratio(harness_per_cell, bare_per_cell)}"
        f"  (marginal, fixed part left out: {ratio(marginal_per_cell, bare_per_cell)})"
    )
    print(
        f"  claude inside the harness / bare claude, per session  "
        f"{ratio(mean(claude_in), mean(bare.sessions_s))}"
    )
    print(
        f"  scoring / cell test time                              {ratio(mean(scorer), mean(cell_s))}"
        f"  ({100 * mean(scorer) / mean(cell_s):.0f} % of a cell)"
    )
    print(
        f"  pytest fixed overhead / whole harness run             "
        f"{ratio(collect.wall_s, harness.wall_s)}  (collect-only; = {collect.wall_s / bare_per_cell:.1f} "
        "bare claude cells)"
    )
    print(
        f"  time outside any cell / whole harness run             "
        f"{ratio(outside_cells, harness.wall_s)}  (from the run; = "
        f"{outside_cells / bare_per_cell:.1f} bare claude cells)"
    )
    print(f"  pytest controller peak RSS / claude peak RSS          {ratio(pytest_peak, claude_bare_peak)}")
    if workers > 0:
        harness_rss = pytest_peak + worker_peak * workers
        print(
            f"  (controller + {workers} workers) peak RSS / claude peak RSS  "
            f"{ratio(harness_rss, claude_bare_peak)}"
        )
    print(f"  scorer peak RSS / claude peak RSS                     {ratio(scorer_peak, claude_bare_peak)}")
    print(
        f"  selftest wall / bare claude session                   "
        f"{ratio(selftest.wall_s, mean(bare.sessions_s))}"
    )
    print(
        f"\nmemory: per-process VmHWM sampled every {SAMPLE_S * 1000:.0f} ms "
        f"({sampler.ticks} samples in the harness run); peaks, not sums"
    )
    left = procs.descendants(os.getpid(), procs.processes())
    if left:
        problems.append(f"processes left behind: {sorted(left)}")
    if problems:
        print("\nPROBLEMS (figures above are not trustworthy):")
        for p in problems:
            print(f"  - {p}")
        return 1
    return 0


def _run(fn: Callable[[], int]) -> int:
    try:
        return fn()
    except KeyboardInterrupt:
        _kill_live()
        return 130


if __name__ == "__main__":
    raise SystemExit(_run(main))
