"""Run dirs on disk for the `ponybench` console script: results.jsonl and run.json of a
synthetic run with a known effect per arm."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path


def write_run(
    path: Path, arms: dict[str, tuple[float, float, float]], seed: int, tasks: int = 20, runs: int = 3
) -> Path:
    """A run dir with results.jsonl: arms map to (pass rate, LOC ratio, cost ratio). A task's
    size and price depend on the task only, so runs written with other seeds share the tasks."""
    rng = random.Random(seed)
    lines = []
    for t in range(tasks):
        trng = random.Random(f"task-{t}")
        loc0, cost0 = trng.uniform(20, 200), trng.uniform(0.05, 0.5)
        for run in range(runs):
            for arm, (rate, loc, cost) in arms.items():
                ok = rng.random() < rate
                lines.append(
                    json.dumps(
                        {
                            "cell_id": f"t{t:02d}-{arm}-sonnet-r{run}",
                            "task": f"t{t:02d}",
                            "arm": arm,
                            "model": "sonnet",
                            "run": run,
                            "attempt": 1,
                            "valid": True,
                            "error": None,
                            "timed_out": False,
                            "correct": ok,
                            "safe": True,
                            "reason": "" if ok else "incorrect: test_x: wrong",
                            "total_loc": round(loc0 * loc * math.exp(rng.gauss(0, 0.1))),
                            "cost_usd": cost0 * cost * math.exp(rng.gauss(0, 0.1)),
                            "input_tokens": 5000,
                            "output_tokens": rng.randint(800, 1200),
                            "cache_read_tokens": 0,
                            "cache_write_tokens": 0,
                            "turns": 3,
                            "duration_ms": 30000 * math.exp(rng.gauss(0, 0.1)),
                        }
                    )
                )
    path.mkdir(parents=True, exist_ok=True)
    (path / "results.jsonl").write_text("\n".join(lines) + "\n")
    (path / "run.json").write_text(json.dumps({"options": {"runs": runs}}))
    return path


EFFECT = {"baseline": (0.3, 1.0, 1.0), "mine": (0.9, 0.8, 2.0)}
