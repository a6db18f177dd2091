"""What one scoring costs: a task's hidden checks run by the confined scorer against its good
reference, as `scoring.checks.score` runs them for a cell.

Run from the repository root: ``python scripts/bench_scoring.py [--tasks merge_intervals,sql_lookup]
[--repeat 10] [--scorer warm|cold] [--reference good|bad|none]``. For each task it lays the good
reference (or the bad one, or with `none` only the task's seed: an agent that wrote nothing,
every check failing) into a scratch workspace and scores it --repeat times in a row (the first
scoring starts the warm scorer and is left out of the figures). It prints, per task, the median
and range of the scoring's CPU (the checks' process and everything it waited for,
`scorer_cpu_s`) and of its wall time as the harness saw it (`scorer_s`), and the load average,
since other jobs on the machine slow the checks as they slow everything else. Every scoring must
find the good reference correct and safe, and the bad one or nothing written not; a task whose
reference is not judged so stops the script.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from pytest_ponybench.core.tasks import load_task
from pytest_ponybench.isolation import warm
from pytest_ponybench.scoring.checks import score

REPO = Path(__file__).resolve().parents[1]
DEFAULT_TASKS = "merge_intervals,semver_compare,sql_lookup,line_count"


def _ms(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1000:.0f} ({min(xs) * 1000:.0f}-{max(xs) * 1000:.0f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tasks", default=DEFAULT_TASKS, help="comma-separated shipped tasks")
    parser.add_argument("--repeat", type=int, default=10, help="scorings per task (at least 2)")
    parser.add_argument("--scorer", choices=("warm", "cold"), default="warm")
    parser.add_argument(
        "--reference",
        choices=("good", "bad", "none"),
        default="good",
        help="what the workspace holds: a reference, or none (the seed alone: every check fails)",
    )
    args = parser.parse_args()
    if args.repeat < 2:
        parser.error("--repeat must be at least 2: the first scoring is left out")
    os.environ["PONYBENCH_SCORER"] = args.scorer
    base = Path(tempfile.mkdtemp(prefix="ponybench-bench-scoring-"))
    print(f"load average before: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    print(f"{'task':24} {'CPU ms, median (range)':>24} {'wall ms, median (range)':>24}")
    try:
        for name in args.tasks.split(","):
            task = load_task(REPO / "benchmarks" / "tasks" / name, REPO / "fixtures")
            ws = base / name / "ws"
            folder = REPO / "benchmarks" / "tasks" / name
            if args.reference == "none":
                ws.mkdir(parents=True)
                if (folder / "seed").is_dir():
                    shutil.copytree(folder / "seed", ws, dirs_exist_ok=True)
            else:
                shutil.copytree(folder / args.reference, ws)
            cpu, wall = [], []
            for _ in range(args.repeat):
                s = score(task, ws)
                passed = bool(s.correct and s.safe)
                if passed != (args.reference == "good") or s.scorer_cpu_s is None:
                    print(f"{name}: {args.reference} was not judged as such: {s.reason}", file=sys.stderr)
                    return 1
                cpu.append(s.scorer_cpu_s)
                wall.append(s.scorer_s)
            print(f"{name:24} {_ms(cpu[1:]):>24} {_ms(wall[1:]):>24}")
    finally:
        warm.shutdown()
        shutil.rmtree(base, ignore_errors=True)
    print(f"load average after: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
