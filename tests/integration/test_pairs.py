"""Pairs stay together: under xdist the arms of one (task, model, run) block run on the same
worker, back to back (the plugin's own scheduler, through xdist's scheduler hook, unless the
user picks a --dist), so the arms of a pair meet the same API conditions. Node ids stay the
cell ids."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import records, run_dirs

pytestmark = pytest.mark.needs_claude

ARMS = 'baseline = {}\nterse = { prompt = "Answer tersely." }\nplain = { prompt = "Answer plainly." }\n'
# The worker's private scratch folder, <pid>-<hex>/cell-*, reaches the model as the cwd.
WORKER = re.compile(r"/(\d+)-[0-9a-f]{8}/cell-")


def worker_of(run_dir: Path, cell_id: str) -> str:
    log = (run_dir / "cells" / cell_id / "offline_requests.jsonl").read_text()
    found = WORKER.search(log)
    assert found, f"no scratch path in the request log of {cell_id}"
    return found[1]


def test_the_arms_of_a_block_run_on_one_worker_back_to_back(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup", "merge_intervals", "cart_bogo", "line_count"], arms=ARMS)
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", "offline-reference", "--runs", "2", "-v"
    )
    result.assert_outcomes(passed=24)
    ids = re.findall(r"test_cell\[[^\]]*\]\S*", result.stdout.str())
    assert ids and not [i for i in ids if "@" in i], ids  # node ids are the cell ids
    run_dir = run_dirs(root)[-1]
    assert json.loads((run_dir / "summary.json").read_text())["missing"] == []
    by_worker: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    blocks: dict[tuple[str, str, int], set[str]] = defaultdict(set)
    for rec in records(run_dir):  # in the order the cells finished
        block = (rec["task"], rec["model"], rec["run"])
        worker = worker_of(run_dir, rec["cell_id"])
        blocks[block].add(worker)
        by_worker[worker].append(block)
    assert len(blocks) == 8 and all(len(w) == 1 for w in blocks.values()), blocks
    assert len(by_worker) == 2  # both workers had blocks
    for sequence in by_worker.values():
        # Back to back: on its worker a block's three arms are one run of the sequence.
        runs = [b for i, b in enumerate(sequence) if i == 0 or sequence[i - 1] != b]
        assert len(runs) == len(set(runs)), sequence
        assert all(sequence.count(b) == 3 for b in set(sequence))
