"""Shard assignment: blocks stay whole, shards balance to within one block, and the split is the
same in any process (no salted hash) and for any order of the grid."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections import Counter

import pytest

from pytest_ponybench.core import shards
from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import BASELINE, Arm
from pytest_ponybench.core.cell import Cell, grid
from pytest_ponybench.core.runs import Runs
from pytest_ponybench.core.shards import GridSpec, Shard, assign, parse_shard
from pytest_ponybench.core.tasks import load_tasks
from pytest_ponybench.store.runinfo import RunInfo
from tests.support import REPO

SPEC = GridSpec(
    tasks={f"task{i}": f"h{i}" for i in range(16)},
    arms={"baseline": "b0", "ponytail": "p1", "terse": "t2"},
    models=("sonnet", "haiku"),
    runs=Runs(5),
)


@pytest.mark.parametrize("count", [1, 2, 3, 7, 16, 160, 200])
def test_every_block_lands_on_exactly_one_shard_and_shards_balance(count: int) -> None:
    blocks = SPEC.blocks()
    placed = assign(blocks, count)
    assert set(placed) == set(blocks)
    sizes = Counter(placed.values())
    per_shard = [sizes.get(i, 0) for i in range(1, count + 1)]
    assert max(per_shard) - min(per_shard) <= 1
    assert sum(per_shard) == len(blocks) == 160


def test_shards_partition_the_cells_and_never_split_a_block() -> None:
    count = 3
    seen: dict[str, int] = {}
    for index in range(1, count + 1):
        for cid in SPEC.shard_cell_ids(Shard(index, count)):
            assert cid not in seen
            seen[cid] = index
    assert sorted(seen) == sorted(SPEC.cell_ids())
    for task in SPEC.tasks:
        for model in SPEC.models:
            for run in range(SPEC.runs.count):
                where = {seen[shards.cell_id(task, arm, model, run)] for arm in SPEC.arms}
                assert len(where) == 1, f"block {task}/{model}/r{run} split across shards {where}"


def test_assignment_ignores_the_order_of_the_grid() -> None:
    blocks = SPEC.blocks()
    assert assign(blocks, 4) == assign(list(reversed(blocks)), 4)


def test_assignment_is_the_same_in_another_interpreter_with_another_hash_seed() -> None:
    code = (
        "from pytest_ponybench.core.shards import assign\n"
        "blocks = [(f't{i}', m, r) for i in range(8) for m in ('a', 'b') for r in range(3)]\n"
        "print(sorted(assign(blocks, 5).items()))\n"
    )
    outs = set()
    for seed in ("1", "2", "random"):
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
            cwd=REPO,
            check=True,
        )
        outs.add(done.stdout)
    assert len(outs) == 1
    blocks = [(f"t{i}", m, r) for i in range(8) for m in ("a", "b") for r in range(3)]
    assert outs.pop().strip() == str(sorted(assign(blocks, 5).items()))


def test_the_block_hash_and_the_split_are_fixed_values() -> None:
    # Fixed values: the assignment must not change between releases or machines either.
    assert shards.block_hash(("sql_lookup", "sonnet", 0)) == (
        "06e31d4327ce33e796122acc7c822821a415caed7989b275fd111198614b93f6"
    )
    assert shards.block_hash(("t", "m", 2)) == hashlib.sha256(b"t\x1fm\x1f2").hexdigest()
    four = [("a", "m", 0), ("b", "m", 0), ("c", "m", 0), ("d", "m", 0)]
    assert assign(four, 2) == {four[0]: 1, four[1]: 1, four[2]: 2, four[3]: 2}


def test_select_keeps_the_grid_order_and_matches_cell_ids() -> None:
    tasks = load_tasks(REPO / "benchmarks" / "tasks", REPO / "fixtures")[:5]
    arms = [BASELINE, Arm("terse", (Part("prompt", text="Be terse."),))]
    cells = grid(tasks, arms, ["offline-reference", "offline-flawed"], Runs(2))
    spec = GridSpec(
        {t.id: t.content_hash() for t in tasks},
        {a.name: a.content_hash() for a in arms},
        ("offline-reference", "offline-flawed"),
        Runs(2),
    )
    assert [c.id for c in cells] == spec.cell_ids()
    picked: list[Cell] = []
    for index in (1, 2, 3):
        part = shards.select(cells, Shard(index, 3), shards.cell_block)
        assert [c.id for c in part] == spec.shard_cell_ids(Shard(index, 3))
        assert part == [c for c in cells if c in part]  # grid order kept
        picked += part
    assert sorted(c.id for c in picked) == sorted(c.id for c in cells)


def test_a_task_with_runs_of_its_own_keeps_shards_and_cell_ids_in_step() -> None:
    tasks = load_tasks(REPO / "benchmarks" / "tasks", REPO / "fixtures")[:4]
    own = {tasks[1].id: 4, tasks[2].id: 1}
    per_task = {t.id: own.get(t.id, 2) for t in tasks}
    cells = grid(tasks, [BASELINE], ["offline-reference"], Runs(2, own))
    assert {t.id: sum(c.task == t for c in cells) for t in tasks} == per_task
    # Run-major: every task's run 0 first, the extra runs of a task with more at the end.
    assert [c.run for c in cells][:4] == [0, 0, 0, 0] and [c.task.id for c in cells][-2:] == [tasks[1].id] * 2
    hashes = {t.id: t.content_hash() for t in tasks}
    spec = GridSpec(hashes, {"baseline": BASELINE.content_hash()}, ("offline-reference",), Runs(2, per_task))
    assert spec.runs.own == own and [c.id for c in cells] == spec.cell_ids()
    for index in (1, 2):
        part = shards.select(cells, Shard(index, 2), shards.cell_block)
        assert [c.id for c in part] == spec.shard_cell_ids(Shard(index, 2))
    # A grid without runs of its own keeps the hash it always had; one with them has another.
    plain = GridSpec(hashes, {"baseline": BASELINE.content_hash()}, ("offline-reference",), Runs(2))
    same = GridSpec(
        hashes, {"baseline": BASELINE.content_hash()}, ("offline-reference",), Runs(2, {tasks[0].id: 2})
    )
    assert "task_runs" not in plain.as_dict() and plain.hash == same.hash != spec.hash
    info = {
        "tasks": hashes,
        "arms": [{"name": "baseline", "kind": "baseline", "hash": BASELINE.content_hash()}],
        "options": {"models": ["offline-reference"], "runs": 2, "task_runs": own},
    }
    assert RunInfo.from_json(info).grid_spec() == spec
    assert shards.describe_difference(plain, spec) == [
        f"task {tasks[1].id!r} has 2 runs in first but 4 in second",
        f"task {tasks[2].id!r} has 2 runs in first but 1 in second",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3", "takes I/N"),
        ("a/b", "takes I/N"),
        ("0/3", "between 1 and 3"),
        ("4/3", "between 1 and 3"),
        ("1/0", "at least 1"),
        ("-1/3", "takes I/N"),
    ],
)
def test_a_bad_shard_names_the_flag(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        parse_shard(text)
    assert "--shard" in str(info.value)


def test_parse_shard() -> None:
    assert parse_shard("2/3") == Shard(2, 3)
    assert parse_shard(" 1 / 1 ") == Shard(1, 1)
    assert str(Shard(2, 3)) == "2/3"


def test_grid_hash_covers_tasks_arms_models_runs_and_ignores_order() -> None:
    same = GridSpec(dict(reversed(list(SPEC.tasks.items()))), SPEC.arms, ("haiku", "sonnet"), Runs(5))
    assert same.hash == SPEC.hash
    variants = [
        GridSpec({**SPEC.tasks, "task0": "changed"}, SPEC.arms, SPEC.models, Runs(5)),
        GridSpec(SPEC.tasks, {**SPEC.arms, "ponytail": "p2"}, SPEC.models, Runs(5)),
        GridSpec(SPEC.tasks, SPEC.arms, ("sonnet",), Runs(5)),
        GridSpec(SPEC.tasks, SPEC.arms, SPEC.models, Runs(4)),
    ]
    assert len({v.hash for v in variants} | {SPEC.hash}) == 5


def test_difference_names_what_differs() -> None:
    other = GridSpec(
        {**SPEC.tasks, "task0": "changed", "extra": "x"},
        {**SPEC.arms, "ponytail": "p2"},
        ("sonnet",),
        Runs(4),
    )
    lines = shards.describe_difference(SPEC, other, "runs/a", "runs/b")
    assert "arm 'ponytail' has hash p1 in runs/a but p2 in runs/b" in lines
    assert "task 'task0' has hash h0 in runs/a but changed in runs/b" in lines
    assert "task 'extra' only in runs/b" in lines
    assert "models haiku, sonnet in runs/a but sonnet in runs/b" in lines
    assert "runs 5 in runs/a but 4 in runs/b" in lines
    assert shards.describe_difference(SPEC, SPEC) == []


def test_the_grid_of_a_run_json_is_read_from_its_provenance_and_a_missing_key_is_named() -> None:
    info = {
        "tasks": dict(SPEC.tasks),
        "arms": [{"name": n, "hash": h, "kind": "prompt", "prompt": n} for n, h in SPEC.arms.items()],
        "options": {"models": list(SPEC.models), "runs": 5},
    }
    assert RunInfo.from_json(info).grid_spec().hash == SPEC.hash
    with pytest.raises(ValueError, match="'arms'"):
        RunInfo.from_json({**info, "arms": []}).grid_spec()
    with pytest.raises(ValueError, match="'tasks'"):
        RunInfo.from_json({k: v for k, v in info.items() if k != "tasks"}).grid_spec()
