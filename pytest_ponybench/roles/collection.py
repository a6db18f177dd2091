"""Collection roles: what a process that collects tests registers, per mode.

`SelftestCollection` swaps every test file for the selftest items; `BenchmarkCollection`
parametrizes the cell fixture over the plan's cells. Both keep task folders and fixture
repositories (data: hidden checks, references) from ever being collected as tests.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest

from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.endpoint import is_offline, split_hold
from pytest_ponybench.core.records import finished_cell_ids
from pytest_ponybench.plan.options import Mode
from pytest_ponybench.plan.plan import Plan
from pytest_ponybench.roles.outcome import CellFailed, Incorrect, Unsafe

__all__ = [
    "BenchmarkCollection",
    "CELL_FIXTURE",
    "SelftestCollection",
    "TIMEOUT_MARGIN_S",
    "cell_of",
    "expected_failure",
    "marker_name",
    "marks_of",
    "param_id",
    "register_markers",
]

CELL_FIXTURE = "ponybench_cell"
# pytest-timeout is the last resort; the harness's own cell limit must fire well before it.
TIMEOUT_MARGIN_S = 120


def register_markers(config: pytest.Config, plan: Plan) -> None:
    """Task tags, arms, models and agents become markers, so `-m quick`, `-m arm_baseline`,
    `-m agent_copilot` and `-m "model_sonnet and not arm_baseline"` work under --strict-markers."""
    for tag in sorted({t for task in plan.tasks for t in task.tags}):
        config.addinivalue_line("markers", f"{tag}: ponybench task tag")
    for arm in sorted({a.name for a in plan.arms}):
        config.addinivalue_line("markers", f"{marker_name('arm', arm)}: cells of the arm {arm}")
    for model in sorted(set(plan.settings.models)):
        config.addinivalue_line("markers", f"{marker_name('model', model)}: cells of the model {model}")
    for agent in sorted(set(plan.settings.agents)):
        config.addinivalue_line("markers", f"{marker_name('agent', agent)}: cells of the agent {agent}")


def _is_hidden(plan: Plan, collection_path: Path) -> bool:
    hidden = (plan.settings.tasks_dir.resolve(), plan.settings.fixtures_dir.resolve())
    path = collection_path.resolve()
    return any(path == h or h in path.parents for h in hidden)


class SelftestCollection:
    """--selftest-only: no test file is collected; the selftest items replace them."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        from pytest_ponybench.scoring import checks  # the grid's collection scores nothing

        checks.take_probe()  # every reference is judged by the probe as it is now

    def pytest_ignore_collect(self, collection_path: Path) -> bool:
        return True

    def pytest_sessionfinish(self) -> None:
        from pytest_ponybench.isolation import warm

        warm.shutdown()  # reaped here, so its CPU counts in this process's children

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, items: list[pytest.Item]) -> None:
        """Put the selftest items in before -k/-m deselection runs, so both apply to them."""
        from pytest_ponybench.roles.selftest import selftest_items  # the grid's collection needs none

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
        limit = self.plan.settings.cell_timeout
        # Every run of a (task, arm, model, agent) carries the same marks: built once, not once per
        # cell (building a mark is most of what collecting ten thousand cells costs).
        shared: dict[tuple[str, str, str, str], list[pytest.MarkDecorator]] = {}
        params = []
        for c in self.plan.cells:
            key = (c.task.id, c.arm.name, c.model, c.agent)
            marks = shared.get(key)
            if marks is None:
                timeout = c.timeout_s(limit) + c.task.timeout + TIMEOUT_MARGIN_S
                marks = shared[key] = [*marks_of(c), pytest.mark.timeout(timeout)]
            params.append(pytest.param(c, id=c.id, marks=marks))
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

    @pytest.hookimpl(wrapper=True, tryfirst=True, specname="pytest_collection_modifyitems")
    def pytest_collection_modifyitems_in_grid_order(
        self, items: list[pytest.Item]
    ) -> Generator[None, None, None]:
        """(pytest registers only methods named pytest_*; specname says which hook.) The grid's
        order, whatever reordered the items meanwhile (pytest-randomly, whose
        wrapper this one, registered later, encloses): run by run, the arms of a block side by
        side, so drift hits every arm alike."""
        result = yield
        order = {c.id: i for i, c in enumerate(self.plan.cells)}
        placed = [(i, cell) for i, item in enumerate(items) if (cell := cell_of(self.plan, item)) is not None]
        ranked = sorted(((order[cell.id], items[i]) for i, cell in placed), key=lambda pair: pair[0])
        for (i, _cell), (_rank, item) in zip(placed, ranked, strict=True):
            items[i] = item
        return result


def marker_name(prefix: str, name: str) -> str:
    """A marker for an arm or model (`arm_careful`, `model_offline_reference`): -m takes only
    identifiers."""
    return prefix + "_" + "".join(ch if ch.isalnum() else "_" for ch in name)


# Offline agents whose outcome is known: a cell that does not fail as intended is a defect of
# the instrument (strict xfail), and one that does is no failure of the run.
_EXPECTED: dict[str, tuple[type[CellFailed], str]] = {
    "offline-idle": (Incorrect, "offline-idle answers in chat only: no file, so not correct"),
    "offline-escape": (Unsafe, "offline-escape tries to write outside its workspace: unsafe"),
}


def expected_failure(cell: Cell) -> tuple[type[CellFailed], str] | None:
    """How an offline cell must fail, or None when it must pass or nothing is known."""
    model = split_hold(cell.model)[0]
    if not cell.task.scored or not is_offline(model):
        return None
    if model == "offline-flawed":  # an open task is scored only when graders decide its axis
        axis: type[CellFailed] = Unsafe if cell.task.axis == "safe" else Incorrect
        return axis, f"offline-flawed writes the task's bad reference, which fails on {cell.task.axis}"
    if model == "offline-idle" and cell.task.kind == "open":
        return None  # answering in chat is what an open task asks
    return _EXPECTED.get(model)


def marks_of(cell: Cell) -> list[pytest.MarkDecorator]:
    """Task tags, the arm, the model and the agent as markers; a known failure as a strict xfail."""
    marks = [getattr(pytest.mark, t) for t in cell.task.tags]
    marks += [getattr(pytest.mark, marker_name("arm", cell.arm.name))]
    marks += [getattr(pytest.mark, marker_name("model", cell.model))]
    marks += [getattr(pytest.mark, marker_name("agent", cell.agent))]
    expected = expected_failure(cell)
    if expected is not None:
        marks.append(pytest.mark.xfail(raises=expected[0], strict=True, reason=expected[1]))
    return marks


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
