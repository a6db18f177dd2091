"""From records to each arm's cells: per metric and task the values of its valid cells, what
is invalid, unscored, missing or not a measurement (counted), and what the notes need besides
(content hashes, skills registered and used, reaching outside the workspace).

Of a cell's attempts the last valid one counts (`records.latest`). An open task has nothing to
check and is left out, unless graders give its cells a `score`: a task graded only by graders
takes part in the score and in the secondaries (loc, cost, tokens, time), never in pass.
Everything downstream (effects, the bound, the notes) reads `ArmCells`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pytest_ponybench.analysis.stats.metrics import (
    RATE_METRICS,
    SCORE,
    all_metrics,
    judged,
    unscored,
)
from pytest_ponybench.core.records import Record, is_scored, is_valid, latest, reached_outside

__all__ = ["ArmCells", "collect"]


@dataclass
class ArmCells:
    cells: int = 0
    invalid: int = 0
    tasks: set[str] = field(default_factory=set)
    cells_by_task: dict[str, int] = field(default_factory=dict)  # cells in the verdicts, invalid included
    invalid_by_task: dict[str, int] = field(default_factory=dict)
    pass_tasks: set[str] = field(default_factory=set)  # tasks with checks or graders on an axis
    values: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # metric -> task -> runs
    missing: dict[str, int] = field(default_factory=dict)  # metric -> valid cells without a value
    missing_by_task: dict[str, dict[str, int]] = field(default_factory=dict)  # metric -> task -> count
    unscored: int = 0  # valid cells of a task with checks whose correct/safe the scorer never gave
    bad: dict[str, dict[str, int]] = field(default_factory=dict)  # metric -> why -> valid cells
    hashes: set[str] = field(default_factory=set)  # the arm's content hash(es) on record
    skills_available: set[str] = field(default_factory=set)  # what the arm's plugin registered
    skills_used: set[str] = field(default_factory=set)  # of that, what a session invoked
    skill_cells: int = 0  # valid cells where something was registered
    outside: int = 0  # valid cells whose agent read or wrote outside its workspace (the audit)

    def gaps(self, metric: str) -> dict[str, int]:
        """Per task, the cells that give `metric` nothing: invalid, or valid without a value."""
        out = dict(self.invalid_by_task)
        for task, k in self.missing_by_task.get(metric, {}).items():
            out[task] = out.get(task, 0) + k
        return out


def _graded_tasks(records: Iterable[Record]) -> set[tuple[str, str]]:
    """(model, task) of tasks graded only by graders: cells of an open task with a score."""
    return {
        (str(r.get("model")), str(r.get("task")))
        for r in records
        if not is_scored(r) and r.get(SCORE) is not None
    }


def collect(records: Iterable[Record], has_score: bool = False) -> dict[str, dict[str, ArmCells]]:
    """model -> arm -> its cells, from the latest attempt of every cell."""
    chosen = latest(records)
    graded = _graded_tasks(chosen)
    table: dict[str, dict[str, ArmCells]] = {}
    for rec in chosen:
        model, task = str(rec.get("model")), str(rec.get("task"))
        checked = is_scored(rec)
        if not checked and (model, task) not in graded:
            continue  # an open task has nothing to check: it says nothing about an arm's quality
        cells = table.setdefault(model, {}).setdefault(str(rec.get("arm")), ArmCells())
        cells.cells += 1
        cells.cells_by_task[task] = cells.cells_by_task.get(task, 0) + 1
        if checked:
            cells.pass_tasks.add(task)
        arm_hash = rec.get("arm_hash")
        if isinstance(arm_hash, str) and arm_hash:
            cells.hashes.add(arm_hash)
        if not is_valid(rec):
            cells.invalid += 1
            cells.invalid_by_task[task] = cells.invalid_by_task.get(task, 0) + 1
            continue
        cells.tasks.add(task)
        cells.outside += reached_outside(rec)
        available = rec.get("skills_available")
        if isinstance(available, list) and available:
            cells.skill_cells += 1
            cells.skills_available.update(map(str, available))
            used = rec.get("skills_used")
            cells.skills_used.update(
                str(u) for u in (used if isinstance(used, list) else []) if u in available
            )
        if checked and unscored(rec, "pass"):
            cells.unscored += 1
        for metric in all_metrics(has_score):
            if metric in RATE_METRICS and not checked:
                continue  # graded only by graders: no pass, correct or safe to have
            value, why = judged(rec, metric)
            if value is None:
                cells.missing[metric] = cells.missing.get(metric, 0) + 1
                per_task = cells.missing_by_task.setdefault(metric, {})
                per_task[task] = per_task.get(task, 0) + 1
            if why is not None:
                per = cells.bad.setdefault(metric, {})
                per[why] = per.get(why, 0) + 1
            if value is not None:
                cells.values.setdefault(metric, {}).setdefault(task, []).append(value)
    return table
