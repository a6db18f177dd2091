"""Monte Carlo check of `ponybench history --fail-on`: how often it fails when nothing changed
(its false-alarm rate) and how often it catches a real drop (its power).

Synthetic histories go through the same code as the command: `trend.base_runs` picks the base
among `Point`s made by `trend.cells_of`, `trend.pool` pools a window, `verdict.compare_verdicts`
and `verdict.gate_report` decide. Every run of a history draws its cells from the same per-task
pass probabilities (tasks uniform in 0.15-0.85, drawn once per history), so with no drop every
alarm is false; a drop takes the same points off every task's probability in the last run only.
Fixed seeds: the same command prints the same figures, each with its Monte Carlo standard error.

    python scripts/simulate_history_gate.py              # docs/history.md's figures
    python scripts/simulate_history_gate.py --reps 200   # a quick look
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pytest_ponybench.analysis import stats, trend, verdict
from pytest_ponybench.core.records import Record, loaded

ARMS = ("baseline", "mine")


def _run(rng: random.Random, ps: list[float], runs: int, drop: float) -> list[Record]:
    out = []
    for t, p in enumerate(ps):
        for arm in ARMS:
            q = max(0.0, p - drop) if arm == "mine" else p
            for r in range(runs):
                ok = rng.random() < q
                out.append(
                    loaded(
                        {"task": f"t{t:03d}", "arm": arm, "model": "m", "run": r, "valid": True}
                        | {"correct": ok, "safe": True, "total_loc": 10, "cost_usd": 0.01}
                    )
                )
    return out


def _point(name: str, n: int, records: list[Record], tasks: int) -> trend.Point:
    return trend.Point(
        run=name,
        stamp=f"{n:04d}",
        tasks={f"t{t:03d}": "h" for t in range(tasks)},
        arms={a: a for a in ARMS},
        conditions={"CLI version": "1"},
        cells=trend.cells_of(records),
    )


def gate_fails(history: list[list[Record]], rule: str, window: int) -> bool:
    """The command's decision on a history: the last run against its base, the arm `mine`."""
    tasks = len({r["task"] for r in history[0]})
    points = [_point(f"r{n}", n, recs, tasks) for n, recs in enumerate(history)]
    base = trend.base_runs(points, points[-1].run, window)
    pooled = trend.pool([history[int(run[1:])] for run in base.runs])
    label = base.runs[0] if len(base.runs) == 1 else "window"
    rows, _ = verdict.compare_verdicts(pooled, history[-1], base_label=label, cand_label=points[-1].run)
    return any(o.status == stats.FAIL for o in verdict.gate_report(rows, rule) if "mine" in o.row["model"])


def rate(
    reps: int, seed: int, tasks: int, runs: int, window: int, rule: str, drop: float
) -> tuple[float, float]:
    rng = random.Random(seed)
    fails = 0
    for _ in range(reps):
        ps = [rng.uniform(0.15, 0.85) for _ in range(tasks)]
        history = [_run(rng, ps, runs, 0.0) for _ in range(window)] + [_run(rng, ps, runs, drop)]
        fails += gate_fails(history, rule, window)
    share = fails / reps
    return share, math.sqrt(share * (1 - share) / reps)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reps", type=int, default=2000, help="histories per scenario (default 2000)")
    args = parser.parse_args()
    print("| scenario | tasks × runs | window | rule | gate failed |")
    print("|---|---|---|---|---|")
    scenarios = [
        ("no change", 20, 3, 1, "pass:0pp", 0.0),
        ("no change", 20, 3, 1, "pass:-10pp", 0.0),
        ("no change", 20, 3, 3, "pass:-10pp", 0.0),
        ("no change", 10, 1, 1, "pass:-10pp", 0.0),
        ("no change", 40, 3, 1, "pass:-10pp", 0.0),
        ("drop 20 pp", 20, 3, 1, "pass:-10pp", 0.20),
        ("drop 20 pp", 20, 3, 3, "pass:-10pp", 0.20),
        ("drop 30 pp", 20, 3, 1, "pass:-10pp", 0.30),
    ]
    for n, (name, tasks, runs, window, rule, drop) in enumerate(scenarios):
        share, se = rate(args.reps, 1000 + n, tasks, runs, window, rule, drop)
        print(f"| {name} | {tasks} × {runs} | {window} | `{rule}` | {100 * share:.1f} % ± {100 * se:.1f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
