"""A cell, (task, arm, model, run): the unit one pytest test measures, and the grid of them."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.runs import Runs
from pytest_ponybench.core.tasks import Task

__all__ = ["Cell", "grid"]


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


def grid(tasks: list[Task], arms: list[Arm], models: list[str], runs: Runs) -> list[Cell]:
    """Run-major order with the arms adjacent inside each (task, model, run), so drift in the
    model's behaviour over the hours of a run hits every arm alike. A task with its own number
    of runs has its runs beyond the others' last."""
    most = runs.most if tasks else 0
    return [
        Cell(t, a, m, r)
        for r in range(most)
        for t in tasks
        if r < runs.of(t.id)
        for m in models
        for a in arms
    ]
