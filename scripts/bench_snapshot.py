"""What a cell's git snapshot of its seeded workspace costs: the check that no repository
encloses the scratch folder, then `workspace.snapshot` (the workspace's repository and the
harness's copy of it), as `session/run.py` seeds a cell.

Run from the repository root: ``python scripts/bench_snapshot.py [--task sql_lookup] [--cells 40]``.
It lays the shipped task's seed (and fixture) into N scratch cells, then times the snapshots:
CPU of this process and of the git processes it waited for (getrusage), per cell, and the load
average, since other jobs on the machine slow git and Python alike.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
from pathlib import Path

from pytest_ponybench.core.tasks import load_task
from pytest_ponybench.scoring import workspace

REPO = Path(__file__).resolve().parents[1]


def cpu() -> tuple[float, float]:
    """(this process's CPU seconds, its waited-for children's)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--task", default="sql_lookup")
    parser.add_argument("--cells", type=int, default=40)
    args = parser.parse_args()
    task = load_task(REPO / "benchmarks" / "tasks" / args.task, REPO / "fixtures")
    base = Path(tempfile.mkdtemp(prefix="ponybench-bench-snapshot-"))
    try:
        cells = [base / f"c{i}" for i in range(args.cells + 1)]
        for cell in cells:
            workspace.lay(task, cell / "workspace")
        first, rest = cells[0], cells[1:]
        workspace.snapshot(first / "workspace", keep=first / "base.git")  # once per process
        load = os.getloadavg()[0]
        own0, kids0 = cpu()
        for cell in rest:
            if workspace.inside_git_repo(cell):
                raise SystemExit(f"{cell} lies inside a git repository")
            workspace.snapshot(cell / "workspace", keep=cell / "base.git")
        own1, kids1 = cpu()
    finally:
        shutil.rmtree(base, ignore_errors=True)
    n = len(rest)
    print(f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after")
    print(
        f"git snapshot of {args.task} per cell: {(own1 - own0 + kids1 - kids0) / n * 1000:.1f} ms CPU "
        f"(this process {(own1 - own0) / n * 1000:.1f}, git {(kids1 - kids0) / n * 1000:.1f}), {n} cells"
    )


if __name__ == "__main__":
    main()
