"""Collecting a grid of ~10k cells against plain pytest collecting as many parametrized tests.

Alternates the two `pytest --collect-only -q` runs (the shipped benchmark over 3 offline models
and enough runs for ~10k cells, and one test function parametrized over as many values in an
empty folder) and prints each one's wall time and CPU (its own and its children's, from
wait4) and their ratios, median and spread; and the load average. Bytecode is
written and read as an installed package's would be (PYTHONDONTWRITEBYTECODE unset).

    python scripts/bench_collect.py [--pairs 7] [--runs 62]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MODELS = "offline-reference,offline-flawed,offline-coin"


def timed(args: list[str], cwd: Path) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its children, pytest's last line)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
            cwd=cwd,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        lines = out.read().strip().splitlines() or ["?"]
    last = lines[-1]
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"pytest {' '.join(args)} exited {os.waitstatus_to_exitcode(status)}: {last}")
    return wall, usage.ru_utime + usage.ru_stime, last


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--runs", type=int, default=62, help="runs per cell (62: 54 tasks x 3 models x 62)")
    args = parser.parse_args()
    ours_args = ["benchmarks", "--models", MODELS, "--runs", str(args.runs)]
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        plain_dir = Path(tmp)
        *_, said = timed(ours_args, REPO)  # the first run writes the bytecode; not counted
        count = int(said.split()[0])
        (plain_dir / "test_plain.py").write_text(
            f"import pytest\n\n@pytest.mark.parametrize('i', range({count}))\ndef test_x(i):\n    pass\n"
        )
        timed(["-p", "no:ponybench"], plain_dir)
        ours: list[tuple[float, float]] = []
        plain: list[tuple[float, float]] = []
        for _ in range(args.pairs):
            ours.append(timed(ours_args, REPO)[:2])
            plain.append(timed(["-p", "no:ponybench"], plain_dir)[:2])
    print(f"--collect-only of {count} cells, {args.pairs} alternating pairs")
    print(f"load average before: {load_before[0]:.2f}, after: {os.getloadavg()[0]:.2f}")
    for what, i in (("wall", 0), ("CPU", 1)):
        o = [x[i] for x in ours]
        p = [x[i] for x in plain]
        ratios = sorted(a / b for a, b in zip(o, p, strict=True))
        print(f"{what}:")
        print(f"  ponybench:     median {statistics.median(o):5.2f} s  [{min(o):.2f}, {max(o):.2f}]")
        print(f"  plain pytest:  median {statistics.median(p):5.2f} s  [{min(p):.2f}, {max(p):.2f}]")
        print(
            f"  ratio:         median {statistics.median(ratios):5.2f}x [{ratios[0]:.2f}, {ratios[-1]:.2f}]"
        )


if __name__ == "__main__":
    main()
