"""What the per-cell integrity check costs: a baseline taken when a cell starts and compared
when it ends, over a suite of N tasks, the fixtures, the plugin package and a results.jsonl.

Run from the repository root: ``python scripts/bench_integrity.py [--tasks 30] [--records 360]``.
The suite is the shipped tasks copied (cycling, renamed) into a scratch folder until there are
N; the results file holds R records of the size a real record has (about 3 kB). Each sample is
one cell's worth of work as a worker does it, ``Watch.take`` then ``Watch.check`` (the trees
walked once: the last check's walk is the next cell's baseline), with nothing changed; the
figure is the median over the samples, in CPU milliseconds per cell (what the check costs on a
quiet machine; wall time, also printed, moves with the load) and as a fraction of an
offline cell's wall time (about 1.5 s for the CLI session alone, see bench_overhead.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import pytest_ponybench
from pytest_ponybench.session.integrity import Watch

REPO = Path(__file__).resolve().parents[1]
OFFLINE_CELL_S = 1.5


def build_suite(root: Path, n_tasks: int) -> Path:
    shipped = sorted(p for p in (REPO / "benchmarks" / "tasks").iterdir() if p.is_dir())
    tasks = root / "tasks"
    for i in range(n_tasks):
        src = shipped[i % len(shipped)]
        shutil.copytree(src, tasks / f"{src.name}_{i:02d}", ignore=shutil.ignore_patterns("__pycache__"))
    return tasks


def build_results(root: Path, n_records: int) -> Path:
    results = root / "results.jsonl"
    record = {"task": "sql_lookup", "arm": "baseline", "correct": True, "reason": "", "pad": "x" * 2800}
    with results.open("w") as fh:
        for i in range(n_records):
            fh.write(json.dumps({**record, "cell_id": f"c{i}"}) + "\n")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=30)
    parser.add_argument("--records", type=int, default=360)
    parser.add_argument("--samples", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ponybench-bench-integrity-") as tmp:
        root = Path(tmp)
        # Copies, so that edits to the working tree while the script runs are not counted.
        package = root / "pytest_ponybench"
        shutil.copytree(Path(pytest_ponybench.__file__).parent, package)
        fixtures = root / "fixtures"
        shutil.copytree(REPO / "fixtures", fixtures)
        watched = [build_suite(root, args.tasks), fixtures, package]
        results = build_results(root, args.records)
        times, cpu = [], []
        watch = Watch(tuple(watched))
        watch.check(watch.take(append_only=[results]))  # the first cell walks twice
        for _ in range(args.samples):
            started, started_cpu = time.perf_counter(), time.process_time()
            base = watch.take(append_only=[results])
            changes = watch.check(base)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
            assert changes == [], changes
        files = len(base.trees)
        ms = statistics.median(times) * 1000
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(
        f"{args.tasks} tasks + fixtures + package: {files} paths watched; "
        f"results.jsonl {args.records} records ({results_size(args.records)} kB)"
    )
    cpu_ms = statistics.median(cpu) * 1000
    print(
        f"integrity check per cell: {cpu_ms:.1f} ms CPU, {ms:.1f} ms wall (medians over {args.samples}; "
        f"wall min {min(times) * 1000:.1f}); {cpu_ms / 1000 / OFFLINE_CELL_S:.2%} of an offline "
        f"cell's {OFFLINE_CELL_S} s"
    )


def results_size(n_records: int) -> int:
    return n_records * 2900 // 1000


if __name__ == "__main__":
    main()
