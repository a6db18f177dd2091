"""Collecting a grid of ~10k cells against plain pytest collecting as many parametrized tests.

Alternates the two `pytest --collect-only -q` runs (the shipped benchmark over 3 offline models
and enough runs for ~10k cells, and one test function parametrized over as many values in an
empty folder) and prints each one's wall time and their ratio, median and spread. Bytecode is
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


def timed(args: list[str], cwd: Path) -> tuple[float, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    last = (done.stdout.strip().splitlines() or ["?"])[-1]
    if done.returncode != 0:
        raise SystemExit(f"pytest {' '.join(args)} exited {done.returncode}: {last}")
    return wall, last


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--runs", type=int, default=62, help="runs per cell (62: 54 tasks x 3 models x 62)")
    args = parser.parse_args()
    ours_args = ["benchmarks", "--models", MODELS, "--runs", str(args.runs)]
    with tempfile.TemporaryDirectory() as tmp:
        plain_dir = Path(tmp)
        _, said = timed(ours_args, REPO)  # the first run writes the bytecode; not counted
        count = int(said.split()[0])
        (plain_dir / "test_plain.py").write_text(
            f"import pytest\n\n@pytest.mark.parametrize('i', range({count}))\ndef test_x(i):\n    pass\n"
        )
        timed(["-p", "no:ponybench"], plain_dir)
        ours: list[float] = []
        plain: list[float] = []
        for _ in range(args.pairs):
            ours.append(timed(ours_args, REPO)[0])
            plain.append(timed(["-p", "no:ponybench"], plain_dir)[0])
    ratios = sorted(o / p for o, p in zip(ours, plain, strict=True))
    print(f"--collect-only of {count} cells, {args.pairs} alternating pairs")
    print(f"  ponybench:     median {statistics.median(ours):5.2f} s  [{min(ours):.2f}, {max(ours):.2f}]")
    print(f"  plain pytest:  median {statistics.median(plain):5.2f} s  [{min(plain):.2f}, {max(plain):.2f}]")
    print(f"  ratio:         median {statistics.median(ratios):5.2f}x [{ratios[0]:.2f}, {ratios[-1]:.2f}]")


if __name__ == "__main__":
    main()
