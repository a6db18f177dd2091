"""Monte Carlo check of the verdict rule: A/A false verdicts, interval coverage and power.

Synthetic records go through the same code as a real run (`stats.verdicts`, `verdict.check_gate`),
so what this prints is the behaviour of the shipped rule, not of a formula. Fixed seeds: the same
command prints the same figures.

    python scripts/simulate_verdicts.py                  # the README's figures, a few minutes
    python scripts/simulate_verdicts.py --reps 200       # a quick look

The world it simulates: tasks differ a lot in difficulty (each task's pass probability is drawn
from 0.15-0.60), runs of one task share it; a cell that fails is incorrect (70 %), unsafe (20 %)
or both. Code size, tokens, cost and time are log-normal with a task level and run noise (cost
follows tokens). An effect adds the same number of points to every task's pass probability, so
the true mean difference is known exactly.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pytest_ponybench.analysis import stats, verdict

GATE = "pass:-10pp,loc:+20%,cost:+20%"


@dataclass(frozen=True)
class Shape:
    tasks: int
    runs: int


def _task_world(rng: random.Random) -> dict[str, float]:
    return {
        "p": rng.uniform(0.15, 0.60),
        "loc": rng.gauss(math.log(60), 0.8),
        "tok": rng.gauss(math.log(20_000), 0.6),
        "time": rng.gauss(math.log(40_000), 0.5),
    }


def _cell(
    rng: random.Random, world: dict[str, float], arm: str, t: int, r: int, lift: float
) -> dict[str, Any]:
    ok = rng.random() < world["p"] + lift
    why = rng.random()
    correct = ok or why >= 0.7
    safe = ok or why < 0.7 or why >= 0.9
    if not ok and correct and safe:
        correct = False
    tok = math.exp(world["tok"] + rng.gauss(0, 0.25))
    return {
        "task": f"t{t:03d}",
        "arm": arm,
        "model": "sim",
        "run": r,
        "valid": True,
        "correct": correct,
        "safe": safe,
        "total_loc": max(1, round(math.exp(world["loc"] + rng.gauss(0, 0.3)))),
        "input_tokens": round(tok),
        "output_tokens": round(tok / 10),
        "cost_usd": tok * 3e-6 * math.exp(rng.gauss(0, 0.05)),
        "duration_ms": round(math.exp(world["time"] + rng.gauss(0, 0.3))),
    }


def grid(rng: random.Random, shape: Shape, lift: float) -> list[dict[str, Any]]:
    """One replication: baseline and `mine` on every task and run; `mine` gains `lift`."""
    records = []
    for t in range(shape.tasks):
        world = _task_world(rng)
        for r in range(shape.runs):
            records.append(_cell(rng, world, "baseline", t, r, 0.0))
            records.append(_cell(rng, world, "mine", t, r, lift))
    return records


@dataclass
class Tally:
    reps: int = 0
    any_decided: int = 0  # at least one metric called better or worse
    gate_failed: int = 0
    pass_decided: int = 0
    pass_covered: int = 0
    loc_covered: int = 0


def replicate(rng: random.Random, shape: Shape, lift: float, tally: Tally) -> None:
    records = grid(rng, shape, lift)
    rows = stats.verdicts(records)
    (row,) = rows
    effects = {e.metric: e for e in row["effects"]}
    tally.reps += 1
    tally.any_decided += any(e.verdict != stats.UNDECIDED for e in effects.values())
    tally.gate_failed += bool(verdict.check_gate(rows, GATE))
    p = effects["pass"]
    tally.pass_decided += p.verdict == stats.BETTER
    tally.pass_covered += p.low <= 100 * lift <= p.high
    loc = effects["total_loc"]
    tally.loc_covered += loc.low <= 0.0 <= loc.high


def pct(k: int, n: int) -> str:
    return f"{100 * k / n:5.1f}%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000, help="replications per scenario")
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args(argv)

    shapes = [Shape(10, 3), Shape(20, 1), Shape(20, 3), Shape(20, 5), Shape(40, 3)]
    print(f"{args.reps} replications per scenario, seed {args.seed}; gate {GATE}")
    print()
    print("A/A (identical arms):")
    print("  tasks x runs  any metric decided  gate failed  pass 95% covers 0  loc 95% covers 0")
    for i, shape in enumerate(shapes):
        rng = random.Random(args.seed + i)
        tally = Tally()
        for _ in range(args.reps):
            replicate(rng, shape, 0.0, tally)
        print(
            f"  {shape.tasks:5d} x {shape.runs:<4d}  {pct(tally.any_decided, tally.reps):>18}"
            f"  {pct(tally.gate_failed, tally.reps):>11}  {pct(tally.pass_covered, tally.reps):>17}"
            f"  {pct(tally.loc_covered, tally.reps):>16}"
        )
    print()
    print("Power (pass better; every task gains the same points):")
    print("  effect  tasks x runs  pass called better  pass 95% covers the effect")
    for j, (lift, shape) in enumerate(
        [(0.25, Shape(20, 3)), (0.25, Shape(10, 3)), (0.15, Shape(40, 3)), (0.25, Shape(20, 1))]
    ):
        rng = random.Random(args.seed + 100 + j)
        tally = Tally()
        for _ in range(args.reps):
            replicate(rng, shape, lift, tally)
        print(
            f"  +{100 * lift:.0f} pp  {shape.tasks:5d} x {shape.runs:<4d}"
            f"  {pct(tally.pass_decided, tally.reps):>18}  {pct(tally.pass_covered, tally.reps):>26}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
