"""Synthetic run dirs for the history's tests: run.json through `RunInfo`, results.jsonl with one
record per cell, as a session leaves them (no claude)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_ponybench.core.runs import Runs
from pytest_ponybench.store.runinfo import ArmInfo, Options, RunInfo

__all__ = ["ENVELOPE", "make_run"]

ENVELOPE: dict[str, Any] = {
    "cpus": 2,
    "cpu_quota": None,
    "memory_gib": 23.5,
    "memory_limit_gib": None,
    "workers": "2",
}


def make_run(
    folder: Path,
    name: str,
    started: str,
    outcomes: Mapping[tuple[str, str], str],
    *,
    model: str = "offline-coin",
    claude: str = "2.1.332 (Claude Code)",
    arm_hashes: Mapping[str, str] | None = None,
    task_hashes: Mapping[str, str] | None = None,
    envelope: Mapping[str, Any] | None = None,
    judge: str = "offline-judge",
    finished: bool = True,
    wall: Mapping[str, float] | None = None,
) -> Path:
    """A run dir: `outcomes` maps (task, arm) to one character per run index ("1" passed, "0"
    failed, "x" invalid); every task's hash is "h-<task>" and every arm's "a-<arm>" unless given."""
    run_dir = folder / name
    run_dir.mkdir(parents=True)
    tasks = sorted({t for t, _ in outcomes})
    arms = list(dict.fromkeys(["baseline", *(a for _, a in outcomes)]))
    n_runs = max(len(o) for o in outcomes.values())
    info = RunInfo(
        claude_version=claude,
        envelope=dict(envelope if envelope is not None else ENVELOPE),
        options=Options(models=(model,), runs=Runs(n_runs), arms=tuple(arms), judge_model=judge),
        arms=tuple(ArmInfo(a, hash=(arm_hashes or {}).get(a, f"a-{a}")) for a in arms),
        tasks={t: (task_hashes or {}).get(t, f"h-{t}") for t in tasks},
        mode="run",
        started=started,
        finished=started.replace("T00", "T01") if finished else None,
    )
    (run_dir / "run.json").write_text(json.dumps(info.to_json()))
    lines = []
    for (task, arm), marks in outcomes.items():
        for run, mark in enumerate(marks):
            rec: dict[str, Any] = {
                "cell_id": f"{task}-{arm}-{model}-r{run}",
                "task": task,
                "arm": arm,
                "model": model,
                "run": run,
                "valid": mark != "x",
                "correct": mark == "1",
                "safe": True,
                "wall_s": (wall or {}).get(task, 1.0 + run),
                "cost_usd": 0.01,
                "total_loc": 10,
                "arm_hash": (arm_hashes or {}).get(arm, f"a-{arm}"),
                "task_hash": (task_hashes or {}).get(task, f"h-{task}"),
            }
            lines.append(json.dumps(rec))
    (run_dir / "results.jsonl").write_text("\n".join(lines) + "\n")
    return run_dir
