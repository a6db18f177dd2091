"""Shard run dirs of one grid laid out on disk, as `ponybench merge` and the run dir's owner
read them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_ponybench.core.runs import Runs
from pytest_ponybench.core.shards import GridSpec, Shard

SPEC = GridSpec(
    tasks={"alpha": "ha", "beta": "hb", "gamma": "hc"},
    arms={"baseline": "b0", "terse": "t1"},
    models=("offline-reference",),
    runs=Runs(2),
)


def provenance(shard: Shard | None, spec: GridSpec) -> dict[str, Any]:
    """What a shard's run.json records about its place in the grid."""
    if shard is None:
        return {"grid_hash": spec.hash}
    cells = spec.shard_cell_ids(shard)
    return {"grid_hash": spec.hash, "shard": {"index": shard.index, "count": shard.count, "cells": cells}}


def shard_run_json(spec: GridSpec, shard: Shard | None, started: str, **extra: Any) -> dict[str, Any]:
    return {
        "claude_version": "2.1.332 (Claude Code)",
        "started": started,
        "finished": started.replace("T10", "T11"),
        "options": {
            "models": list(spec.models),
            "runs": spec.runs.count,
            "arms": list(spec.arms),
            "budget_usd": 1.5,
        },
        "arms": [{"name": n, "kind": "prompt", "hash": h, "prompt": n} for n, h in spec.arms.items()],
        "tasks": dict(spec.tasks),
        **provenance(shard, spec),
        **extra,
    }


def shard_record(cell_id: str, spec: GridSpec, **fields: Any) -> dict[str, Any]:
    for task, model, run in spec.blocks():
        for arm in spec.arms:
            if f"{task}-{arm}-{model}-r{run}" == cell_id:
                return {
                    "cell_id": cell_id,
                    "task": task,
                    "arm": arm,
                    "model": model,
                    "run": run,
                    "valid": True,
                    "correct": True,
                    "safe": True,
                    "total_loc": 10,
                    "cost_usd": 0.01,
                    **fields,
                }
    raise AssertionError(cell_id)


def make_part(
    root: Path,
    name: str,
    spec: GridSpec,
    shard: Shard | None,
    cells: list[str] | None = None,
    started: str = "2026-11-30T10:00:00+00:00",
    spent: float = 0.5,
    **extra: Any,
) -> Path:
    path = root / name
    (path / "cells").mkdir(parents=True)
    (path / "run.json").write_text(json.dumps(shard_run_json(spec, shard, started, **extra)))
    ids = cells if cells is not None else (spec.shard_cell_ids(shard) if shard else spec.cell_ids())
    lines = []
    for cid in ids:
        lines.append(json.dumps(shard_record(cid, spec)))
        ws = path / "cells" / cid / "workspace"
        ws.mkdir(parents=True)
        (ws / "main.py").write_text(f"# {name} {cid}\n")
    (path / "results.jsonl").write_text("".join(line + "\n" for line in lines))
    (path / "spend.json").write_text(json.dumps({"spent_usd": spent, "max_cell_usd": 0.01, "running": {}}))
    return path
