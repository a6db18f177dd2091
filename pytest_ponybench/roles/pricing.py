"""The estimate of a plan's cost (estimate.py), measured here through real cells of the offline
reference agent: one per task with the baseline, one per other arm on the first task (an arm
adds about the same tokens to every session: its hook output, its skills and prompt).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_ponybench.analysis import estimate
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.graders.outcome import JUDGE_TYPES
from pytest_ponybench.core.tasks import Task
from pytest_ponybench.gateway.routes import Routes
from pytest_ponybench.gateway.server import shared
from pytest_ponybench.offline.agents import is_offline
from pytest_ponybench.offline.endpoint import OfflineEndpoint
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.roles.config import OFFLINE_JUDGE
from pytest_ponybench.roles.plan import Plan
from pytest_ponybench.roles.runner import judging_of
from pytest_ponybench.session.run import CellContext, run_cell
from pytest_ponybench.store.results import RunDir, write_json

__all__ = ["CACHE_FILE", "EARLIER_RUNS", "MEASURE_MODEL", "lines", "load_cache", "save_cache"]

MEASURE_MODEL = "offline-reference"
CACHE_FILE = ".ponybench-estimates.json"  # in the output folder: measured profiles by key
EARLIER_RUNS = 20  # the latest run dirs read for earlier records of the same cells


def _earlier(plan: Plan) -> dict[tuple[str, str, str], list[estimate.Profile]]:
    out_dir = plan.settings.out_dir
    runs = sorted((p for p in out_dir.glob("*/") if (p / "results.jsonl").is_file()), reverse=True)
    records = [r for run in runs[:EARLIER_RUNS] for r in RunDir(run).records()]
    found: dict[tuple[str, str, str], list[estimate.Profile]] = {}
    for task in plan.tasks:
        for arm in plan.arms:
            for model in plan.settings.models:
                seen = estimate.from_records(records, task.content_hash(), arm.content_hash(), model)
                if seen:
                    found[(task.id, arm.name, model)] = seen
    return found


def _session(task: Task, arm: Arm, plan: Plan, server: OfflineServer, claude_version: str | None) -> Any:
    def run() -> Mapping[str, Any]:
        assert plan.claude is not None
        with tempfile.TemporaryDirectory(prefix="ponybench-estimate-") as tmp:
            ctx = CellContext(
                run_dir=RunDir(Path(tmp)),
                claude=plan.claude,
                cell_timeout=min(plan.settings.cell_timeout, 120.0),
                max_turns=plan.settings.max_turns,
                endpoint=OfflineEndpoint(server),
                claude_version=claude_version,
                # The offline judge's token counts stand for the run's judge's (its price is
                # the judge model's).
                judging=judging_of(
                    replace(plan, settings=replace(plan.settings, judge_model=OFFLINE_JUDGE)),
                    Routes(shared(), OfflineEndpoint(server)),
                    (),
                ),
            )
            return run_cell(Cell(task, arm, MEASURE_MODEL, 0), ctx)

    return run


def lines(plan: Plan, claude_version: str | None) -> list[estimate.Line]:
    """The estimate of every model of the plan's cells."""
    earlier = _earlier(plan)
    cells = [(c.task.id, c.arm.name, c.model) for c in plan.cells]
    needed = {(t, a) for t, a, m in cells if (t, a, m) not in earlier}
    measured: dict[tuple[str, str], estimate.Profile] = {}
    if needed and plan.tasks and plan.arms:
        measured = _measure(plan, needed, claude_version)
    judged = frozenset(t.id for t in plan.tasks if any(g.type in JUDGE_TYPES for g in t.graders))
    return estimate.estimate(
        cells, measured, earlier, is_offline, plan.judge_model if judged else None, judged
    )


def load_cache(folder: Path) -> dict[str, dict[str, float]]:
    try:
        data = json.loads((folder / CACHE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_cache(folder: Path, cache: Mapping[str, Mapping[str, float]]) -> None:
    try:
        write_json(folder / CACHE_FILE, dict(cache))
    except OSError:
        pass  # a cache: the next estimate measures again


def _measure(
    plan: Plan, needed: set[tuple[str, str]], claude_version: str | None
) -> dict[tuple[str, str], estimate.Profile]:
    tasks = {t.id: t for t in plan.tasks}
    arms = {a.name: a for a in plan.arms}
    base = plan.arms[0]  # baseline first
    first = plan.tasks[0]
    want = {(t, base.name) for t, _ in needed} | {(first.id, a) for _, a in needed}
    cache = load_cache(plan.settings.out_dir)
    with OfflineServer() as server:
        jobs = [
            (
                estimate.cache_key(tasks[t].content_hash(), arms[a].content_hash(), claude_version),
                _session(tasks[t], arms[a], plan, server, claude_version),
            )
            for t, a in sorted(want)
        ]
        by_key = estimate.measure(jobs, cache, workers=os.cpu_count() or 2)
    save_cache(plan.settings.out_dir, cache)
    got = {pair: by_key[key] for pair, (key, _) in zip(sorted(want), jobs, strict=True) if key in by_key}
    out = {}
    for t, a in needed:
        own = got.get((t, a))
        if own is not None:
            out[(t, a)] = own
        elif (t, base.name) in got and (first.id, a) in got and (first.id, base.name) in got:
            out[(t, a)] = got[(t, base.name)].plus(got[(first.id, a)], got[(first.id, base.name)])
    return out
