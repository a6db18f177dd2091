"""Shards: one grid split across machines by (task, model, run) block, the same split everywhere.

A block is the arms of one (task, model, run) (with several agents, of one (task, model, agent,
run): the model's lane names the agent, `core.cell.lane_of`): they run on one shard (and, under
xdist, on one worker back to back), so the arms of a pair meet the same API conditions. A block's place is
decided by sha256 of its key text, never by Python's `hash()` (salted per process): the blocks
are sorted by that digest and dealt round-robin, so every shard holds the same number of blocks
give or take one, on every machine and Python version.

The grid hash covers what makes two shards parts of one grid: tasks and their content hashes,
arms and their content hashes, models, the agents (when not claude alone) and the number of
runs. Shards of different grids are never merged; `describe_difference` says what differs.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pytest_ponybench.core.bounds import OPT_SHARD
from pytest_ponybench.core.cell import DEFAULT_AGENT, agents_shown, lane_of
from pytest_ponybench.core.runs import Runs

__all__ = [
    "BlockKey",
    "C",
    "GridSpec",
    "OPT_SHARD",
    "SHARD_RE",
    "Shard",
    "assign",
    "block_hash",
    "block_id",
    "block_text",
    "cell_block",
    "cell_id",
    "describe_difference",
    "parse_shard",
    "select",
]

SHARD_RE = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")

BlockKey = tuple[str, str, int]  # (task, lane, run): the lane is the model, or model-agent
C = TypeVar("C")


@dataclass(frozen=True)
class Shard:
    """Shard `index` of `count`, 1-based: `--shard 1/3` is the first of three."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(text: str) -> Shard:
    """`I/N` with 1 <= I <= N; a ValueError names the flag and says what is wrong."""
    match = SHARD_RE.match(text or "")
    if not match:
        raise ValueError(f"{OPT_SHARD} takes I/N (shard I of N, from 1), e.g. 2/3; got {text!r}")
    index, count = int(match[1]), int(match[2])
    if count < 1:
        raise ValueError(f"{OPT_SHARD} {text}: the shard count N must be at least 1")
    if not 1 <= index <= count:
        raise ValueError(f"{OPT_SHARD} {text}: the shard index I must be between 1 and {count}")
    return Shard(index, count)


def block_text(key: BlockKey) -> str:
    """The text that is hashed: fields joined by a separator no name can hold."""
    task, model, run = key
    return f"{task}\x1f{model}\x1f{run}"


def block_hash(key: BlockKey) -> str:
    return hashlib.sha256(block_text(key).encode("utf-8")).hexdigest()


def block_id(key: BlockKey) -> str:
    """A readable name for the block, also its cells' scope under xdist (scheduling.py)."""
    task, model, run = key
    return f"{task}-{model}-r{run}"


def assign(blocks: Iterable[BlockKey], count: int) -> dict[BlockKey, int]:
    """Each block's shard (1-based): sorted by digest, dealt round-robin."""
    if count < 1:
        raise ValueError("the shard count must be at least 1")
    ordered = sorted(set(blocks), key=lambda k: (block_hash(k), block_text(k)))
    return {key: pos % count + 1 for pos, key in enumerate(ordered)}


def select(cells: Sequence[C], shard: Shard, key: Callable[[C], BlockKey]) -> list[C]:
    """The cells of shard, in their given order: a block's cells all stay or all go.

    The blocks are those of `cells` (the whole grid, before any -k/-m deselection), so every
    shard of one grid computes the same assignment.
    """
    placed = assign((key(c) for c in cells), shard.count)
    return [c for c in cells if placed[key(c)] == shard.index]


def cell_block(cell: Any) -> BlockKey:
    """The block of a `cells.Cell` (duck-typed: task.id, lane, run)."""
    return (str(cell.task.id), str(cell.lane), int(cell.run))


# -- the grid --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GridSpec:
    """What defines a grid: task id -> content hash, arm name -> content hash, models, and the
    runs (the run's and the tasks' own, task.toml's `runs`)."""

    tasks: Mapping[str, str]
    arms: Mapping[str, str]
    models: tuple[str, ...]
    runs: Runs
    agents: tuple[str, ...] = (DEFAULT_AGENT,)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tasks": dict(sorted(self.tasks.items())),
            "arms": dict(sorted(self.arms.items())),
            "models": sorted(self.models),
            "runs": self.runs.count,
        }
        if self.runs.own:  # only then: a grid without keeps the hash it always had
            out["task_runs"] = dict(sorted(self.runs.own.items()))
        if agents_shown(self.agents):  # likewise: claude alone keeps its hash
            out["agents"] = list(self.agents)
        return out

    @property
    def lanes(self) -> list[str]:
        """The model and agent of each column of the grid, as cell ids name them."""
        shown = agents_shown(self.agents)
        return [lane_of(m, a, shown) for m in self.models for a in self.agents]

    @property
    def hash(self) -> str:
        text = json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def blocks(self) -> list[BlockKey]:
        """In the grid's order (`cell.grid`): run-major, a task's own extra runs last."""
        return [
            (t, m, r)
            for r in range(self.runs.most)
            for t in self.tasks
            if r < self.runs.of(t)
            for m in self.lanes
        ]

    def cell_ids(self) -> list[str]:
        """Every cell of the grid, in the order the grid runs them (arms adjacent per block)."""
        return [cell_id(t, a, m, r) for (t, m, r) in self.blocks() for a in self.arms]

    def shard_cell_ids(self, shard: Shard) -> list[str]:
        placed = assign(self.blocks(), shard.count)
        return [
            cell_id(t, a, m, r)
            for (t, m, r) in self.blocks()
            if placed[(t, m, r)] == shard.index
            for a in self.arms
        ]


def cell_id(task: str, arm: str, model: str, run: int) -> str:
    """The id `cells.Cell.id` gives the same cell."""
    return f"{task}-{arm}-{model}-r{run}"


def describe_difference(a: GridSpec, b: GridSpec, a_name: str = "first", b_name: str = "second") -> list[str]:
    """What differs between two grids, one line each, naming the task, arm or option."""
    out: list[str] = []
    for what, left, right in (("task", a.tasks, b.tasks), ("arm", a.arms, b.arms)):
        for name in sorted(set(left) | set(right)):
            if name not in right:
                out.append(f"{what} {name!r} only in {a_name}")
            elif name not in left:
                out.append(f"{what} {name!r} only in {b_name}")
            elif left[name] != right[name]:
                out.append(f"{what} {name!r} has hash {left[name]} in {a_name} but {right[name]} in {b_name}")
    if sorted(a.models) != sorted(b.models):
        out.append(
            f"models {', '.join(sorted(a.models))} in {a_name} but {', '.join(sorted(b.models))} in {b_name}"
        )
    if sorted(a.agents) != sorted(b.agents):
        out.append(
            f"agents {', '.join(sorted(a.agents))} in {a_name} but {', '.join(sorted(b.agents))} in {b_name}"
        )
    if a.runs.count != b.runs.count:
        out.append(f"runs {a.runs.count} in {a_name} but {b.runs.count} in {b_name}")
    for task in sorted(set(a.runs.own) | set(b.runs.own)):
        if a.runs.of(task) != b.runs.of(task) and task in a.tasks and task in b.tasks:
            out.append(
                f"task {task!r} has {a.runs.of(task)} runs in {a_name} but {b.runs.of(task)} in {b_name}"
            )
    return out
