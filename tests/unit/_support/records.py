"""Cell records made by hand: each test module's form of a minimal valid record, a run dir of
them, and an effect by metric."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_ponybench.analysis import stats
from pytest_ponybench.core.records import Record, loaded


def rec(task: str, arm: str, run: int = 0, **extra: Any) -> Record:
    data: dict[str, Any] = {
        "task": task,
        "arm": arm,
        "model": "m",
        "run": run,
        "valid": True,
        "correct": True,
        "safe": True,
        "total_loc": 10,
        "cost_usd": 0.01,
        "input_tokens": 100,
        "output_tokens": 10,
        "duration_ms": 1000,
    }
    data.update(extra)
    return loaded(data)


def record(task: str, arm: str, run: int, ok: bool, cost: float, **extra: Any) -> Record:
    rec: dict[str, Any] = {
        "task": task,
        "arm": arm,
        "model": "sonnet",
        "run": run,
        "valid": True,
        "correct": ok,
        "safe": True,
        "total_loc": 40,
        "cost_usd": cost,
        "input_tokens": 1000,
        "output_tokens": 200,
        "cache_read_tokens": 5000,
        "cache_write_tokens": 300,
        "duration_ms": 20_000,
    }
    rec.update(extra)
    return loaded(rec)


def cell(task: str, arm: str, run: int = 0, **extra: Any) -> Record:
    rec: dict[str, Any] = {
        "cell_id": f"{task}-{arm}-sonnet-r{run}",
        "task": task,
        "arm": arm,
        "model": "sonnet",
        "run": run,
        "attempt": 1,
        "valid": True,
        "correct": True,
        "safe": True,
        "total_loc": 40 + run,
        "cost_usd": 0.10 + 0.01 * run,
        "input_tokens": 1000,
        "output_tokens": 100 + run,
        "duration_ms": 20_000 + 100 * run,
        "wall_s": 21.0,
    }
    rec.update(extra)
    return loaded(rec)


def write_records(tmp_path: Path, records: list[Record], raw_lines: list[str] | None = None) -> str:
    run = tmp_path / "run"
    run.mkdir()
    lines = [json.dumps(r) for r in records] + (raw_lines or [])
    (run / "results.jsonl").write_text("\n".join(lines) + "\n")
    return str(run)


def effects(row: stats.ArmVerdict) -> dict[str, stats.Effect]:
    return {e.metric: e for e in row["effects"]}


def holds(e: stats.Effect, value: float) -> bool:
    return e.low <= value <= e.high


def write_report_run(path: Path, recs: list[Record], run: dict[str, Any] | None = None) -> Path:
    """A run dir as the HTML report reads it: results.jsonl and run.json."""
    path.mkdir(parents=True)
    (path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    (path / "run.json").write_text(json.dumps(run or {}))
    return path


def report_record(task: str, arm: str, run: int = 0, **fields: Any) -> Record:
    """A record with a cell id and an attempt, as the HTML report finds its cell folder."""
    return loaded(
        {
            "cell_id": f"{task}-{arm}-m-r{run}",
            "task": task,
            "arm": arm,
            "model": "m",
            "run": run,
            "attempt": 1,
            "valid": True,
            "correct": True,
            "safe": True,
            "reason": "",
            **fields,
        }
    )


def arm_record(
    arm: str, *, expect: bool | None = None, hooks: list[str] | None = None, **more: Any
) -> Record:
    """A cell's record as the arm's health and its triggers read it: what fired, what was expected."""
    out: dict[str, Any] = {"task": "t0", "arm": arm, "model": "sonnet", "run": 0, "valid": True, **more}
    out["cell_id"] = f"{out['task']}-{arm}-sonnet-r{out['run']}"
    if expect is not None:
        out["expect_fire"] = expect
    if hooks is not None:
        out["hooks_fired"] = hooks
    return loaded(out)
