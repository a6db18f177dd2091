"""Synthetic runs with a known effect per arm: a task's size and price come from the task alone,
so two runs made with different seeds share their tasks; the cells' noise comes from the seed."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from pytest_ponybench.core.records import Record, loaded


@dataclass(frozen=True)
class Arm:
    pass_rate: float
    loc: float = 1.0  # true ratio to the task's baseline LOC
    cost: float = 1.0  # true ratio to the task's baseline cost


def synth(
    arms: dict[str, Arm], seed: int, tasks: int = 20, runs: int = 3, model: str = "sonnet"
) -> list[Record]:
    """Records of one run. A task's size and price come from the task alone, so two runs made
    with different seeds share their tasks; the cells' noise comes from `seed`."""
    rng = random.Random(seed)
    out: list[Record] = []
    for t in range(tasks):
        trng = random.Random(f"task-{t}")
        loc0, cost0 = trng.uniform(20, 200), trng.uniform(0.05, 0.5)
        tok0, ms0 = trng.uniform(1e4, 1e5), trng.uniform(2e4, 9e4)
        for run in range(runs):
            for name, arm in arms.items():
                out.append(
                    loaded(
                        {
                            "cell_id": f"t{t:02d}-{name}-{model}-r{run}",
                            "task": f"t{t:02d}",
                            "arm": name,
                            "model": model,
                            "run": run,
                            "attempt": 1,
                            "valid": True,
                            "correct": rng.random() < arm.pass_rate,
                            "safe": True,
                            "total_loc": round(loc0 * arm.loc * math.exp(rng.gauss(0, 0.1))),
                            "cost_usd": cost0 * arm.cost * math.exp(rng.gauss(0, 0.1)),
                            "input_tokens": round(tok0 * math.exp(rng.gauss(0, 0.1))),
                            "output_tokens": 900,
                            "duration_ms": ms0 * math.exp(rng.gauss(0, 0.1)),
                        }
                    )
                )
    return out


EFFECT = {"baseline": Arm(0.3), "mine": Arm(0.9, loc=0.8, cost=2.0)}


NOISE = {"baseline": Arm(0.5), "mine": Arm(0.5)}
