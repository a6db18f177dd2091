"""`Runs`: how many runs each task of a grid gets, under one name from the flag to the record.

The run's number comes from `--runs` (or `[tool.ponybench] runs`, or `--max-runs` under
`--until-decided`); a task may run its own number (task.toml's `runs`) unless `--runs` was given
on the command line. The plan resolves it once, the grid and the grid hash read it, and run.json
records it as `options.runs` and `options.task_runs` (store/runinfo.py), from which `--resume`
takes it back whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["Runs"]


@dataclass(frozen=True)
class Runs:
    """The run's number of runs per (task, arm, model), and the tasks that run another number."""

    count: int
    # Only the tasks whose runs differ from count, by task id (sorted): a grid without any keeps
    # the grid hash and the run.json it always had.
    own: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "own", {t: n for t, n in sorted(self.own.items()) if n != self.count})

    @classmethod
    def of_tasks(cls, declared: Mapping[str, int | None], count: int, given: bool) -> Runs:
        """`count` for every task when it was given on the command line; else a task's own
        `runs` (declared: task id -> task.toml's runs, None where it has none), else `count`."""
        return cls(count, {} if given else {t: n for t, n in declared.items() if n is not None})

    def of(self, task: str) -> int:
        return self.own.get(task, self.count)

    def only(self, tasks: Iterable[str]) -> Runs:
        """The same runs, with own numbers kept only for these tasks (a resume's selection)."""
        wanted = set(tasks)
        return Runs(self.count, {t: n for t, n in self.own.items() if t in wanted})

    @property
    def most(self) -> int:
        """The most runs any task gets: how far the run-major grid goes."""
        return max([self.count, *self.own.values()])

    def words(self) -> str:
        """`2 runs`, or `2 runs (tasks' own: 5)`."""
        others = sorted(set(self.own.values()))
        return f"{self.count} runs" + (f" (tasks' own: {', '.join(map(str, others))})" if others else "")
