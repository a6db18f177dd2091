"""The cell runner role: the only thing the cell fixture talks to.

Registered in every process that runs cells (each xdist worker, or the only process without
xdist). It holds what running a cell needs (the run dir, the offline server, the spend ledger)
and the retry loop; records go to the run dir and onto the test's report.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench._util.paths import PACKAGE_ROOT
from pytest_ponybench.agents import registry
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.endpoint import served_by
from pytest_ponybench.core.records import Record, number
from pytest_ponybench.gateway.server import Gateway
from pytest_ponybench.isolation import warm
from pytest_ponybench.offline.endpoint import OfflineEndpoint
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.plan.options import OPT_ALLOW_UNCONFINED, Mode
from pytest_ponybench.plan.plan import Plan
from pytest_ponybench.plan.sessions import judging_of, routes_of
from pytest_ponybench.roles.outcome import RECORD_KEY, CellInvalid
from pytest_ponybench.scoring import checks as scoring
from pytest_ponybench.scoring import interpreter
from pytest_ponybench.scoring.workspace import Caps
from pytest_ponybench.session import integrity
from pytest_ponybench.session.run import CellContext, rescore_cell, run_cell
from pytest_ponybench.store import spend, weather
from pytest_ponybench.store.results import RunDir
from pytest_ponybench.store.slots import StartSlots

__all__ = ["CellRunner", "HarnessFault"]


class HarnessFault(Exception):
    """The harness itself cannot go on (the run dir cannot be written): stop the session."""


class CellRunner:
    """Runs one cell at a time for the fixture: retries, budget, records."""

    def __init__(
        self, config: pytest.Config, plan: Plan, run_dir: Path, versions: Mapping[str, str | None]
    ) -> None:
        self.config = config
        self.plan = plan
        self.run_dir = RunDir(run_dir)
        self.versions = dict(versions)  # each agent's CLI version line, as the controller read it
        # Started by the first offline session (OfflineEndpoint.open), stopped at the end; the
        # gateway by the first session of any model.
        self.server = OfflineServer(latency_s=plan.settings.offline_latency)
        self.endpoint = OfflineEndpoint(self.server)
        self.gateway = Gateway()
        s = plan.settings
        self.ledger = spend.Ledger(self.run_dir.path, s.budget_usd, s.max_budget_usd)
        self.routes = routes_of(plan, self.gateway, self.endpoint, self.ledger)
        hidden = (s.tasks_dir, s.fixtures_dir, self.run_dir.path, PACKAGE_ROOT, Path.cwd())
        self.judging = judging_of(plan, self.routes, hidden)
        scoring.take_probe()  # the probe every later scoring uses, as it is now
        s = plan.settings
        scorer_trees, sites = interpreter.watched()
        self.watched = integrity.Watch(
            tuple(
                integrity.harness_paths(
                    s.tasks_dir, s.fixtures_dir, s.root / "conftest.py", s.root / "pyproject.toml"
                )
            ),
            strict=tuple(scorer_trees),
            listings=tuple(sites),
        )

    @property
    def caps(self) -> Caps:
        s = self.plan.settings
        return Caps(max_bytes=s.max_workspace_mb << 20, max_files=s.max_workspace_files)

    def context(self, cell: Cell) -> CellContext:
        s = self.plan.settings
        binary = self.plan.binaries.get(cell.agent)
        assert binary is not None  # resolved by the plan for every agent of its cells
        return CellContext(
            run_dir=self.run_dir,
            claude=binary,
            cell_timeout=s.cell_timeout,
            max_turns=s.max_turns,
            endpoint=self.endpoint,
            max_budget_usd=s.max_budget_usd,
            claude_version=self.versions.get(cell.agent),
            agent=registry.get(cell.agent),
            allow_unconfined=s.allow_unconfined,
            unconfined_flag=OPT_ALLOW_UNCONFINED,
            extend=self.extend,
            watched=self.watched,
            slots=StartSlots(self.run_dir.path),
            caps=self.caps,
            judging=self.judging,
            gateway=self.gateway,
            live=self.routes.live,
            models=self.routes.models,
            budget=self.ledger,
        )

    def extend(self, cell: Cell, record: Record, cell_dir: Path) -> None:
        """Metrics from pytest_ponybench_record implementations, merged into record['extra'].

        Each implementation is called on its own, so one that raises is recorded under
        `hook_error` and the others' metrics are kept: a broken metric never loses a cell.
        """
        given = {"cell": cell, "record": record, "cell_dir": cell_dir}
        extra: dict[str, Any] = {}
        for impl in self.config.hook.pytest_ponybench_record.get_hookimpls():
            try:
                found = impl.function(*(given[name] for name in impl.argnames))
            except Exception as exc:
                extra["hook_error"] = f"{type(exc).__name__}: {exc}"
                continue
            if isinstance(found, dict):
                extra.update(found)
        if extra:
            record["extra"] = {**record.get("extra", {}), **extra}

    def run(self, cell: Cell) -> Record:
        """One cell, retried while its session is invalid; every attempt is recorded."""
        if self.plan.mode is Mode.RESCORE:
            assert self.plan.previous is not None
            return rescore_cell(
                cell,
                self.plan.previous,
                self.run_dir,
                extend=self.extend,
                caps=self.caps,
            )
        try:
            return self._run(cell)
        except OSError as exc:
            raise HarnessFault(
                f"ponybench: the run dir {self.run_dir.path} cannot be written ({exc}); every record "
                "written so far is kept: free space, then resume the run"
            ) from None

    def _run(self, cell: Cell) -> Record:
        s = self.plan.settings
        ledger = self.ledger
        offline = served_by(self.endpoint, cell.model)
        policy = weather.OFFLINE_POLICY if offline else weather.Policy()
        sky = weather.Weather(self.run_dir.path, replace(policy, breaker=s.stop_after_invalid))
        attempt = 0
        while True:
            attempt += 1
            # Every worker waits out one shared backoff; a tripped breaker starts no more cells.
            stopped = sky.wait_if_needed()
            if stopped:
                pytest.skip(f"{weather.STOPPED}: {stopped}")
            decided = self.run_dir.stopped()
            if decided:  # --until-decided: the design needs no more cells
                pytest.skip(f"sequential: {decided}")
            refused = ledger.acquire(cell.id)
            if refused:
                pytest.skip(refused)
            rec = Record()
            try:
                rec = run_cell(cell, self.context(cell))
            finally:
                ledger.release(cell.id, _spent(rec))
            stopped = sky.observe(rec, number(rec.get("retry_after_s")))
            if attempt > s.retries or not spend.retryable(rec) or stopped:
                return rec
            time.sleep(spend.backoff_s(attempt, offline))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """An invalid cell's error shows its reason alone, not the fixture's source lines."""
        rep = yield
        if call.excinfo is not None and call.excinfo.errisinstance(CellInvalid):
            rep.longrepr = f"CellInvalid: {call.excinfo.value}"
        elif call.excinfo is not None and call.excinfo.errisinstance(HarnessFault):
            rep.longrepr = str(call.excinfo.value)
            item.session.shouldstop = str(call.excinfo.value)
        rec = item.stash.get(RECORD_KEY, None)
        if rec is not None and rep.when == "setup":
            rep.ponybench = rec  # type: ignore[attr-defined]  # xdist carries it to the controller
        if rec is not None and rec.get("harness_changed"):
            # Every later verdict would come from a changed instrument: stop (xdist stops
            # the other workers too) and say what changed.
            item.session.shouldstop = str(rec.get("error"))
        return rep

    def pytest_sessionfinish(self) -> None:
        warm.shutdown()  # reaped here, so its CPU counts in this process's children
        self.gateway.stop()
        self.server.stop()


def _spent(rec: Record) -> float | None:
    """What a cell cost the budget: the agent's session and its judge's calls."""
    agent_usd, judge_usd = number(rec.get("cost_usd")), number(rec.get("judge_cost_usd"))
    if agent_usd is None and judge_usd is None:
        return None
    return (agent_usd or 0.0) + (judge_usd or 0.0)
