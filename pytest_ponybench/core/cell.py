"""A cell, (task, arm, model, run): the unit one pytest test measures, and the grid of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.tasks import Task

__all__ = ["Cell", "grid", "runs_per_task"]


@dataclass(frozen=True)
class Cell:
    task: Task
    arm: Arm
    model: str
    run: int

    @property
    def id(self) -> str:
        return f"{self.task.id}-{self.arm.name}-{self.model}-r{self.run}"

    def timeout_s(self, default: float) -> float:
        """The session's time limit: the task's `cell_timeout`, else the run's."""
        return self.task.policy.cell_timeout or default

    def max_turns(self, default: int) -> int:
        """The session's turn limit: the task's `max_turns`, else the run's."""
        return self.task.max_turns or default


def runs_per_task(tasks: Sequence[Task], runs: int, runs_given: bool) -> dict[str, int]:
    """Runs of each task: `--runs` on the command line for all; else a task's own `runs`, else
    the run's (pyproject or the default)."""
    return {t.id: runs if runs_given or t.policy.runs is None else t.policy.runs for t in tasks}


def grid(
    tasks: list[Task],
    arms: list[Arm],
    models: list[str],
    runs: int,
    per_task: Mapping[str, int] | None = None,
) -> list[Cell]:
    """Run-major order with the arms adjacent inside each (task, model, run), so drift in the
    model's behaviour over the hours of a run hits every arm alike. per_task gives a task its
    own number of runs (its runs beyond the others' come last)."""
    counts = {t.id: (per_task or {}).get(t.id, runs) for t in tasks}
    most = max(counts.values(), default=0)
    return [
        Cell(t, a, m, r) for r in range(most) for t in tasks if r < counts[t.id] for m in models for a in arms
    ]
