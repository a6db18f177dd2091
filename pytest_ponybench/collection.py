"""Collection roles: what a process that collects tests registers, per mode.

`SelftestCollection` swaps every test file for the selftest items; `BenchmarkCollection`
parametrizes the cell fixture over the plan's cells. Both keep task folders and fixture
repositories (data: hidden checks, references) from ever being collected as tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from . import scoring, warm
from .cells import Cell
from .config import Mode
from .plan import Plan
from .records import finished_cell_ids
from .selftest import selftest_items
from .shards import cell_block, xdist_group

CELL_FIXTURE = "ponybench_cell"
# pytest-timeout is the last resort; the harness's own cell limit must fire well before it.
TIMEOUT_MARGIN_S = 120


def register_markers(config: pytest.Config, plan: Plan) -> None:
    """Task tags become markers, so `-m quick` works under --strict-markers."""
    for tag in sorted({t for task in plan.tasks for t in task.tags}):
        config.addinivalue_line("markers", f"{tag}: ponybench task tag")


def _is_hidden(plan: Plan, collection_path: Path) -> bool:
    hidden = (plan.settings.tasks_dir.resolve(), plan.settings.fixtures_dir.resolve())
    path = collection_path.resolve()
    return any(path == h or h in path.parents for h in hidden)


class SelftestCollection:
    """--selftest-only: no test file is collected; the selftest items replace them."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        scoring.take_probe()  # every reference is judged by the probe as it is now

    def pytest_ignore_collect(self, collection_path: Path) -> bool:
        return True

    def pytest_sessionfinish(self) -> None:
        warm.shutdown()  # reaped here, so its CPU counts in this process's children

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, items: list[pytest.Item]) -> None:
        """Put the selftest items in before -k/-m deselection runs, so both apply to them."""
        items[:] = selftest_items(session, list(self.plan.tasks))


class BenchmarkCollection:
    """The grid: one test per cell, ids from Cell.id, task tags as markers."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan

    def pytest_ignore_collect(self, collection_path: Path) -> bool | None:
        return True if _is_hidden(self.plan, collection_path) else None

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        """Parametrize the cell fixture over tasks x arms x models x runs (or the cells to rescore)."""
        if CELL_FIXTURE not in metafunc.fixturenames:
            return
        # xdist_group: under --dist loadgroup the arms of a (task, model, run) block run on one
        # worker, back to back, so the arms of a pair meet the same API conditions.
        params = [
            pytest.param(
                c,
                id=c.id,
                marks=[
                    *(getattr(pytest.mark, t) for t in c.task.tags),
                    pytest.mark.xdist_group(xdist_group(cell_block(c))),
                ],
            )
            for c in self.plan.cells
        ]
        metafunc.parametrize(CELL_FIXTURE, params, indirect=True)

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        if self.plan.mode is Mode.RESUME and self.plan.previous is not None:
            # Only what has no valid record yet; the rest is reported as deselected.
            done = finished_cell_ids(self.plan.previous.records())
            dropped = [i for i in items if (c := cell_of(self.plan, i)) is not None and c.id in done]
            if dropped:
                config.hook.pytest_deselected(items=dropped)
                gone = set(dropped)
                items[:] = [i for i in items if i not in gone]
        limit = self.plan.settings.cell_timeout
        for item in items:
            cell = cell_of(self.plan, item)
            if cell is not None:
                item.add_marker(pytest.mark.timeout(limit + cell.task.timeout + TIMEOUT_MARGIN_S))


def param_id(nodeid: str) -> str | None:
    """The parameter id of a parametrized test's node id (`path::test[<id>]`, or with the
    `@<group>` that xdist's loadgroup appends)."""
    if "]" in nodeid:
        nodeid = nodeid[: nodeid.rindex("]") + 1]
    if not nodeid.endswith("]") or "[" not in nodeid:
        return None
    return nodeid[nodeid.index("[") + 1 : -1]


def cell_of(plan: Plan, item: pytest.Item | str) -> Cell | None:
    """The plan's cell behind a collected item or a node id; the one mapping from tests to cells."""
    if isinstance(item, str):
        pid = param_id(item)
    else:
        callspec = getattr(item, "callspec", None)
        pid = callspec.id if callspec is not None and CELL_FIXTURE in callspec.params else None
    return plan.cell(pid) if pid is not None else None
