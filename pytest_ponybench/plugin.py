"""pytest entry point of pytest-ponybench: options, configuration, fixtures.

The work lives in `session.PonybenchSession`, registered as a plugin; its hooks do nothing in a
pytest run that neither asks for the selftest nor points at the benchmark suite.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import config as cfg
from .cells import Cell
from .selftest import SelftestSummary
from .session import RUN_DIR_KEY, CellInvalid, CellOutcome, PonybenchSession

SESSION_KEY = pytest.StashKey[PonybenchSession]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Every option lives in the `ponybench` group; see config.HELP for the text."""
    cfg.add_options(parser)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Resolve the run dir and register the session object before pytest-json-report reads
    its options (tryfirst), so the report lands in the run dir."""
    session = PonybenchSession(config)
    config.stash[SESSION_KEY] = session
    config.pluginmanager.register(session, "ponybench-session")
    session.configure()
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(XdistHooks(session), "ponybench-xdist")
    if session.selftest_only and not session.is_worker:
        config.pluginmanager.register(SelftestSummary(), "ponybench-selftest-summary")


class XdistHooks:
    """Registered only when xdist is present: hand every worker the controller's run dir."""

    def __init__(self, session: PonybenchSession) -> None:
        self.session = session

    def pytest_configure_node(self, node: Any) -> None:
        if self.session.run_dir_path is not None:
            node.workerinput[RUN_DIR_KEY] = str(self.session.run_dir_path)

    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """The controller collects nothing itself: learn the expected cells from a worker."""
        if not self.session.expected_cells:
            self.session.expect_from_nodeids(ids)


@pytest.fixture
def ponybench_cell(request: pytest.FixtureRequest) -> CellOutcome:
    """Run one cell in the fixture's setup: an invalid session is then a pytest error (the
    instrument failed), while a wrong or unsafe result is a test failure (the arm failed)."""
    cell = request.param
    if not isinstance(cell, Cell):
        raise pytest.UsageError("ponybench_cell is parametrized by the plugin only")
    session = request.config.stash[SESSION_KEY]
    record = session.run(cell)
    request.node.user_properties.append(("ponybench", record))
    json_meta = getattr(request.node, "_json_report_extra", None)
    if isinstance(json_meta, dict):
        json_meta.setdefault("metadata", {})["ponybench"] = record
    if not record.get("valid"):
        raise CellInvalid(f"invalid cell {cell.id}: {record.get('error')}")
    return CellOutcome(record)
