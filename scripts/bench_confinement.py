"""What confining the agent costs: the offline main command with and without bubblewrap.

Run from anywhere: ``python scripts/bench_confinement.py [--reps 3] [--workers 2]``.

1. **The prefix alone**: N runs of the confinement prefix around ``true`` (the exact bwrap
   arguments a cell gets) against the prefix it replaces (``unshare --pid --fork
   --kill-child``), so the difference is what bubblewrap adds to starting one session.
2. **The main command**: ``pytest benchmarks -n W --models offline-reference,offline-flawed``
   on a scratch copy of the project, alternating confined and unconfined
   (``PONYBENCH_BWRAP=/nonexistent``, which offline runs allow) so drift in the machine's load
   hits both alike. Per cell it reports the claude process's wall time (``wall_s`` in the
   records) and the whole command's wall time divided by the number of cells.

Prints seconds per cell with vs without, the difference and the ratio. Offline, a session
lasts about a second, so this is the worst case; against a live model the same milliseconds
are a far smaller share.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pytest_ponybench.isolation import confine  # noqa: E402

MODELS = "offline-reference,offline-flawed"


def prefix_cost(n: int) -> tuple[float, float]:
    """Seconds per start: the confinement prefix around `true`, and the unshare it replaces."""
    state = confine.status()
    if not state.available or state.bwrap is None:
        raise SystemExit(f"confinement is not available here: {state.reason}")
    with tempfile.TemporaryDirectory() as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        ws.mkdir()
        home.mkdir()
        view = confine.View(writable=(ws, home), network=True, chdir=ws)
        bwrap = [*confine.bwrap_argv(state.bwrap, view, userns=state.userns), "true"]
        unshare = ["unshare", "--pid", "--fork", "--kill-child", "true"]
        timings: dict[str, list[float]] = {"bwrap": [], "unshare": []}
        for _ in range(n):
            for name, argv in (("bwrap", bwrap), ("unshare", unshare)):
                started = time.perf_counter()
                subprocess.run(argv, check=True, stdin=subprocess.DEVNULL)
                timings[name].append(time.perf_counter() - started)
    return statistics.median(timings["bwrap"]), statistics.median(timings["unshare"])


def project_copy(into: Path) -> Path:
    for name in ("benchmarks", "fixtures"):
        shutil.copytree(REPO / name, into / name, ignore=shutil.ignore_patterns("__pycache__", "runs"))
    shutil.copy(REPO / "pyproject.toml", into / "pyproject.toml")
    if (REPO / "conftest.py").exists():
        shutil.copy(REPO / "conftest.py", into / "conftest.py")
    return into


def main_command(root: Path, workers: int, confined: bool) -> tuple[float, list[float]]:
    """(whole wall seconds, wall_s of each cell) of one run of the main command."""
    env = dict(os.environ)
    if not confined:
        env[confine.BWRAP_ENV] = "/nonexistent"
    out = root / "runs" / ("confined" if confined else "unconfined")
    argv = [sys.executable, "-m", "pytest", "benchmarks", "-q", "-p", "no:cacheprovider"]
    argv += ["-n", str(workers), "--models", MODELS, "--ponybench-out", str(out)]
    started = time.perf_counter()
    subprocess.run(argv, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    run_dir = max(out.iterdir(), key=lambda p: p.stat().st_mtime)
    records = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines() if line]
    if any(r.get("confined") is not confined for r in records):
        raise SystemExit(f"{run_dir}: a cell's `confined` is not {confined}")
    shutil.rmtree(run_dir)
    return wall, [float(r["wall_s"]) for r in records]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="runs of the main command per side")
    parser.add_argument("--workers", type=int, default=2, help="-n for the main command")
    parser.add_argument("--starts", type=int, default=50, help="runs of each prefix around `true`")
    args = parser.parse_args()

    bwrap, unshare = prefix_cost(args.starts)
    print(
        f"prefix around `true` (median of {args.starts}): bwrap {bwrap * 1000:.1f} ms, unshare "
        f"{unshare * 1000:.1f} ms: bubblewrap adds {(bwrap - unshare) * 1000:.1f} ms per session"
    )
    print(f"load average before the main command: {os.getloadavg()[0]:.1f}")

    walls: dict[bool, list[float]] = {True: [], False: []}
    cells: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory(prefix="ponybench-bench-confine-") as tmp:
        root = project_copy(Path(tmp))
        for _ in range(args.reps):
            for confined in (True, False):
                wall, cell_walls = main_command(root, args.workers, confined)
                walls[confined].append(wall / len(cell_walls))
                cells[confined] += cell_walls
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    n = len(cells[True]) // args.reps
    print(f"main command: {n} cells, -n {args.workers}, {args.reps} runs each side, alternating")
    for label, data in (("command wall / cells", walls), ("claude wall_s per cell", cells)):
        on, off = statistics.median(data[True]), statistics.median(data[False])
        print(
            f"  {label:24s} confined {on:.3f} s, unconfined {off:.3f} s: "
            f"{on - off:+.3f} s per cell, ratio {on / off:.3f}"
        )


if __name__ == "__main__":
    main()
