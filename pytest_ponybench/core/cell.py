"""A cell, (task, arm, model, run): the unit one pytest test measures, and the grid of them."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_ponybench.core.arms import Arm
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


def grid(tasks: list[Task], arms: list[Arm], models: list[str], runs: int) -> list[Cell]:
    """Run-major order with the arms adjacent inside each (task, model, run), so drift in the
    model's behaviour over the hours of a run hits every arm alike."""
    return [Cell(t, a, m, r) for r in range(runs) for t in tasks for m in models for a in arms]
