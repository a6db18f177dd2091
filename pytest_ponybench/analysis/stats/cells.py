"""From records to each arm's cells: per metric and task the values of its valid cells, what
is invalid, missing or not a measurement (counted), and what the notes need besides (content
hashes, skills registered and used, reaching outside the workspace).

Of a cell's attempts the last valid one counts (`records.latest`); an open task has nothing to
check and is left out. Everything downstream (effects, the bound, the notes) reads `ArmCells`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pytest_ponybench.analysis.stats.metrics import all_metrics, bad_number, metric_value, unscored
from pytest_ponybench.core.records import Record, is_scored, is_valid, latest, reached_outside

__all__ = ["ArmCells", "collect"]


@dataclass
class ArmCells:
    cells: int = 0
    invalid: int = 0
    tasks: set[str] = field(default_factory=set)
    cells_by_task: dict[str, int] = field(default_factory=dict)  # scored cells, invalid included
    invalid_by_task: dict[str, int] = field(default_factory=dict)
    values: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # metric -> task -> runs
    missing: dict[str, int] = field(default_factory=dict)  # metric -> valid cells without a value
    bad: dict[str, dict[str, int]] = field(default_factory=dict)  # metric -> why -> valid cells
    hashes: set[str] = field(default_factory=set)  # the arm's content hash(es) on record
    skills_available: set[str] = field(default_factory=set)  # what the arm's plugin registered
    skills_used: set[str] = field(default_factory=set)  # of that, what a session invoked
    skill_cells: int = 0  # valid cells where something was registered
    outside: int = 0  # valid cells whose agent read or wrote outside its workspace (the audit)


def collect(records: Iterable[Record], has_score: bool = False) -> dict[str, dict[str, ArmCells]]:
    """model -> arm -> its cells, from the latest attempt of every cell."""
    table: dict[str, dict[str, ArmCells]] = {}
    for rec in latest(records):
        if not is_scored(rec):
            continue  # an open task has nothing to check: it says nothing about an arm's quality
        cells = table.setdefault(str(rec.get("model")), {}).setdefault(str(rec.get("arm")), ArmCells())
        task = str(rec.get("task"))
        cells.cells += 1
        cells.cells_by_task[task] = cells.cells_by_task.get(task, 0) + 1
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
        for metric in all_metrics(has_score):
            value = metric_value(rec, metric)
            if value is None or unscored(rec, metric):
                cells.missing[metric] = cells.missing.get(metric, 0) + 1
            why = bad_number(rec, metric)
            if why is not None:
                per = cells.bad.setdefault(metric, {})
                per[why] = per.get(why, 0) + 1
            if value is not None:
                cells.values.setdefault(metric, {}).setdefault(task, []).append(value)
    return table
