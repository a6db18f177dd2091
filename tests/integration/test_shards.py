"""Shards and merge end to end, with the real CLI: the offline grid run as three shards in three
separate pytest commands and merged equals one unsharded run; no block is split; a shard that
never arrived is listed cell by cell and `--resume` on the merged dir runs exactly those cells;
shards of two grids are refused, naming the difference."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.core.shards import Shard
from pytest_ponybench.store import runinfo
from tests.support import records, run_dirs

pytestmark = pytest.mark.needs_claude

TASKS = ["sql_lookup", "merge_intervals", "cart_bogo", "explain_fixture_scopes"]
MODELS = "offline-reference,offline-flawed"
ARMS = 'baseline = {}\nterse = { prompt = "Answer tersely." }\n'


def _without_times(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary without wall-clock figures; other floats to 9 significant digits, since a sum
    over records in another order differs in its last bits (0.06733835 vs 0.06733834999999999)."""

    def value(v: Any) -> Any:
        return float(f"{v:.9g}") if isinstance(v, float) else v

    def clean(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: value(v) for k, v in r.items() if not k.startswith("time_")} for r in rows]

    return {k: clean(v) if k in ("rows", "models") else v for k, v in summary.items()}


def ponybench(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_ponybench.cli", *args],
        cwd=root,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )


def shard_run(pytester: pytest.Pytester, root: Path, shard: str, *extra: str) -> Path:
    out = f"shards/{shard.replace('/', 'of')}"
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", MODELS, "--shard", shard, "--ponybench-out", out, *extra
    )
    assert result.ret in (0, 1), result.stdout.str()
    (run_dir,) = [p for p in (root / out).iterdir() if p.is_dir()]
    return run_dir


@pytest.fixture
def grid(pytester: pytest.Pytester, bench_project: Callable[..., Path]) -> dict[str, Any]:
    """One unsharded run and the three shards of the same grid, each its own pytest command."""
    root = bench_project(tasks=TASKS, arms=ARMS)
    whole = pytester.runpytest_subprocess("benchmarks", "-n", "2", "--models", MODELS)
    assert whole.ret == 0, whole.stdout.str()  # the flawed model's cells fail as intended (xfail)
    parts = [shard_run(pytester, root, f"{i}/3") for i in (1, 2, 3)]
    return {"root": root, "whole": run_dirs(root)[-1], "parts": parts}


def test_three_shards_merged_equal_one_run_and_no_block_is_split(
    pytester: pytest.Pytester, grid: dict[str, Any]
) -> None:
    root, whole, parts = grid["root"], grid["whole"], grid["parts"]
    spec = runinfo.read(parts[0]).grid_spec()
    assert len(spec.cell_ids()) == 16  # 4 tasks x 2 arms x 2 models x 1 run
    where: dict[tuple[str, str, int], set[int]] = defaultdict(set)
    for index, part in enumerate(parts, start=1):
        meta = json.loads((part / "run.json").read_text())
        assert meta["shard"]["index"] == index and meta["shard"]["count"] == 3
        assert meta["grid_hash"] == spec.hash
        recorded = sorted(r["cell_id"] for r in records(part))
        assert recorded == sorted(spec.shard_cell_ids(Shard(index, 3)))
        for rec in records(part):
            where[(rec["task"], rec["model"], rec["run"])].add(index)
    assert len(where) == 8 and all(len(found) == 1 for found in where.values()), where
    sizes = sorted(sum(1 for found in where.values() if found == {i}) for i in (1, 2, 3))
    assert sizes == [2, 3, 3]  # balanced to within one block

    done = ponybench(root, "merge", "-o", "merged", *map(str, parts))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "16 of 16 cells recorded" in done.stdout
    merged = json.loads((root / "merged" / "summary.json").read_text())
    single = json.loads((whole / "summary.json").read_text())
    assert _without_times(merged) == _without_times(single)
    assert sorted(p.name for p in (root / "merged" / "cells").iterdir()) == sorted(spec.cell_ids())
    # The merged dir is a run dir every command accepts.
    for args in (["summary", "merged"], ["compare", "merged"], ["report", "merged"]):
        shown = ponybench(root, *args)
        assert shown.returncode == 0, (args, shown.stdout + shown.stderr)
    rescored = pytester.runpytest_subprocess("benchmarks", "--rescore", "merged")
    assert rescored.ret in (0, 1), rescored.stdout.str()
    (rescore_dir,) = (root / "merged").glob("rescore-*")
    assert sorted(r["cell_id"] for r in records(rescore_dir)) == sorted(spec.cell_ids())


def test_a_missing_shard_is_listed_and_resume_runs_exactly_its_cells(
    pytester: pytest.Pytester, grid: dict[str, Any]
) -> None:
    root, parts = grid["root"], grid["parts"]
    spec = runinfo.read(parts[0]).grid_spec()
    lost = spec.shard_cell_ids(Shard(2, 3))
    done = ponybench(root, "merge", "-o", "partial", str(parts[0]), str(parts[2]))
    assert done.returncode == 1, done.stdout + done.stderr
    listed = [line.split("missing: ", 1)[1] for line in done.stdout.splitlines() if "missing: " in line]
    assert listed == lost, done.stdout + done.stderr
    before = len(records(root / "partial"))
    resumed = pytester.runpytest_subprocess("benchmarks", "-n", "2", "--resume", "partial")
    assert resumed.ret == 0, resumed.stdout.str()  # flawed cells among them: xfail
    outcomes = resumed.parseoutcomes()
    assert outcomes.get("passed", 0) + outcomes.get("xfailed", 0) == len(lost)
    new = records(root / "partial")[before:]
    assert sorted(r["cell_id"] for r in new) == sorted(lost)
    summary = json.loads((root / "partial" / "summary.json").read_text())
    assert summary["missing"] == []
    assert len({r["cell_id"] for r in records(root / "partial")}) == 16


def test_shards_of_two_grids_are_refused_naming_the_difference(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup"], arms="baseline = {}\n")
    one = shard_run(pytester, root, "1/2", "--arm", "terse=prompt:Answer tersely.")
    two = shard_run(pytester, root, "2/2", "--arm", "terse=prompt:Answer briefly.")
    done = ponybench(root, "merge", "-o", "merged", str(one), str(two))
    assert done.returncode == 2
    assert "different grids" in done.stderr
    assert "arm 'terse' has hash" in done.stderr and str(one) in done.stderr and str(two) in done.stderr
    assert not (root / "merged").exists()
