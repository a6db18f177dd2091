"""pytest_ponybench_record through a real cell: the hook's metrics land in the record's `extra`,
and a hook that raises is recorded, not fatal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import records, run_dirs

pytestmark = pytest.mark.needs_claude

CONFTEST = """
def pytest_ponybench_record(cell, record, cell_dir):
    wrote = sorted(p.name for p in (cell_dir / "workspace").glob("*.py"))
    return {"seen_files": wrote, "task_again": cell.task.id, "passed_so_far": record["correct"]}

class Broken:
    def pytest_ponybench_record(self, cell, record, cell_dir):
        raise ValueError("metric broke")

def pytest_configure(config):
    config.pluginmanager.register(Broken(), "broken-metric")
"""


def test_record_hook_adds_metrics_to_every_cell(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["merge_intervals"])
    pytester.makeconftest(CONFTEST)
    result = pytester.runpytest_subprocess("benchmarks", "--models", "offline-reference,offline-flawed")
    result.assert_outcomes(passed=1, xfailed=1)
    recs = {r["model"]: r for r in records(run_dirs(root)[-1])}
    for model, rec in recs.items():
        extra = rec["extra"]
        assert extra["seen_files"] == ["intervals.py"] and extra["task_again"] == "merge_intervals"
        assert extra["passed_so_far"] is (model == "offline-reference")
        assert extra["hook_error"] == "ValueError: metric broke"
