"""A cell, (task, arm, model, agent, run): the unit one pytest test measures, and the grid of them.

The agent is named in a cell's id whenever a run asks for any but claude alone (`--agents`):
`merge_intervals-careful-sonnet-copilot-r0`, and so in its lane (the model under that agent,
what the shards' blocks are per). A run of claude alone keeps the ids, lanes and hashes it
always had.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.runs import Runs
from pytest_ponybench.core.tasks import Task

__all__ = ["Cell", "DEFAULT_AGENT", "agents_shown", "grid", "lane_of"]

DEFAULT_AGENT = "claude"


def agents_shown(agents: tuple[str, ...]) -> bool:
    """Whether cell ids name their agent: in every grid but one of claude alone."""
    return tuple(agents) != (DEFAULT_AGENT,)


def lane_of(model: str, agent: str, shown: bool) -> str:
    """What a cell id says between its arm and its run: the model, or the model and its agent."""
    return f"{model}-{agent}" if shown else model


@dataclass(frozen=True)
class Cell:
    task: Task
    arm: Arm
    model: str
    run: int
    agent: str = DEFAULT_AGENT
    agent_shown: bool = False  # the run is not of claude alone: the id names its agent

    # Worked out once per cell (collecting ten thousand cells asks for each id four times);
    # cached_property writes the instance's __dict__, which a frozen dataclass allows.
    @cached_property
    def lane(self) -> str:
        return lane_of(self.model, self.agent, self.agent_shown)

    @cached_property
    def id(self) -> str:
        return f"{self.task.id}-{self.arm.name}-{self.lane}-r{self.run}"

    def timeout_s(self, default: float) -> float:
        """The session's time limit: the task's `cell_timeout`, else the run's."""
        return self.task.policy.cell_timeout or default

    def max_turns(self, default: int) -> int:
        """The session's turn limit: the task's `max_turns`, else the run's."""
        return self.task.max_turns or default


def grid(
    tasks: list[Task],
    arms: list[Arm],
    models: list[str],
    runs: Runs,
    agents: tuple[str, ...] = (DEFAULT_AGENT,),
) -> list[Cell]:
    """Run-major order with the arms adjacent inside each (task, model, agent, run), so drift
    in the model's behaviour over the hours of a run hits every arm alike. A task with its own
    number of runs has its runs beyond the others' last."""
    most = runs.most if tasks else 0
    shown = agents_shown(agents)
    return [
        Cell(t, a, m, r, agent, shown)
        for r in range(most)
        for t in tasks
        if r < runs.of(t.id)
        for m in models
        for agent in agents
        for a in arms
    ]
