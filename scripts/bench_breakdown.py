"""Where a small offline run's time goes, per run and per cell, against the claude process alone.

Runs `pytest benchmarks -p no:xdist --models offline-reference` over a few tasks and runs in a
scratch copy of the project, under cProfile (wall clock), in one process so every phase of the
harness is in one profile; the scorer's checks and git run in child processes, so what they take
shows as the wall time of the harness function waiting for them. The profiler slows the Python
parts (by about a third); the claude process and the children are not slowed, so the shares
below lean towards the harness: read them as an upper bound of its part.

    python scripts/bench_breakdown.py [--tasks sql_lookup,merge_intervals] [--runs 3]

Each phase is a function of the package, matched by its module's file name and its name, so
the script keeps working when a module moves between wings.
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_concurrency import DEFAULT_TASKS, make_project

# (label, [(file name, function)]): the cumulative wall time of the first match of each.
PER_RUN = [
    ("plugin configure (plan, tasks, run dir)", [("plugin.py", "_configure")]),
    ("pre-flight and warm-up", [("preflight.py", "warm_up"), ("preflight.py", "activation_check")]),
    # The report is written on a thread the profile does not see; the summary waits for it.
    ("summary, verdicts, the report's wait", [("terminal.py", "pytest_terminal_summary")]),
]
PER_CELL = [
    ("lay the task and the arm", [("workspace.py", "lay")]),
    ("git snapshot of the base", [("workspace.py", "snapshot")]),
    ("gateway seat and confinement set-up", [("run.py", "launch")]),
    ("the claude process (wall)", [("launch.py", "run")]),
    ("audit of the transcript", [("audit.py", "audit_transcript")]),
    ("hidden checks in the confined scorer", [("checks.py", "score")]),
    ("graders and metrics", [("score.py", "measure")]),
    ("integrity: baseline taken", [("integrity.py", "take")]),
    ("integrity: checked after the cell", [("integrity.py", "check")]),
    ("workspace kept, record appended", [("run.py", "settle")]),
]
WHOLE_CELL = ("run.py", "run_cell")


def cumulative(stats: pstats.Stats, file: str, func: str) -> tuple[float, int]:
    """Cumulative wall seconds and primitive calls of a function, summed over its definitions."""
    total, calls = 0.0, 0
    raw = stats.stats  # type: ignore[attr-defined]
    for (path, _line, name), (prim, _n, _tt, ct, _callers) in raw.items():
        if name == func and Path(path).name == file and "pytest_ponybench" in path:
            total += ct
            calls += prim
    return total, calls


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tasks", default=",".join(DEFAULT_TASKS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", type=Path, help="keep the profile here (read it with pstats)")
    args = parser.parse_args()
    tasks = [t for t in args.tasks.split(",") if t]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        project = make_project(Path(tmp), tasks)
        prof = Path(tmp) / "run.prof"
        command = [
            sys.executable, "-m", "cProfile", "-o", str(prof), "-m", "pytest", "benchmarks", "-q",
            "-p", "no:xdist", "-p", "no:cacheprovider", "--models", "offline-reference",
            "--runs", str(args.runs),
        ]  # fmt: skip
        start = time.perf_counter()
        done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"the run failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        records = [
            json.loads(line)
            for path in (project / "runs").glob("*/results.jsonl")
            for line in path.read_text().splitlines()
            if line.strip()
        ]
        stats = pstats.Stats(str(prof))
        if args.profile is not None:
            args.profile.write_bytes(prof.read_bytes())
    cells = len(records)
    claude_wall = sum(float(r.get("wall_s") or 0) for r in records)
    whole, _ = cumulative(stats, *WHOLE_CELL)
    print(
        f"{cells} cells ({len(tasks)} tasks x {args.runs} runs, offline-reference, one process),"
        f" wall {wall:.1f} s"
    )
    print(f"the claude process alone: {claude_wall / cells * 1000:7.0f} ms per cell (records' wall_s)")
    print(f"a cell, harness and claude: {whole / cells * 1000:7.0f} ms per cell")
    print(f"harness per cell over claude: {(whole - claude_wall) / cells * 1000:7.0f} ms "
          f"({whole / claude_wall:.2f}x the claude process)")  # fmt: skip
    print("\nper cell (ms, mean over the cells)")
    for label, where in PER_CELL:
        total = sum(cumulative(stats, f, n)[0] for f, n in where)
        print(f"  {label:<40} {total / cells * 1000:7.0f}")
    print("\nonce per run (s)")
    named = 0.0
    for label, where in PER_RUN:
        total = sum(cumulative(stats, f, n)[0] for f, n in where)
        named += total
        print(f"  {label:<40} {total:7.2f}")
    print(f"  {'python, pytest, imports, collection':<40} {wall - whole - named:7.2f}")
    print(f"  {'everything but the cells':<40} {wall - whole:7.2f}")


if __name__ == "__main__":
    main()
