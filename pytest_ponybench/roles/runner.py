"""The cell runner role: the only thing the cell fixture talks to.

Registered in every process that runs cells (each xdist worker, or the only process without
xdist). It holds what running a cell needs (the run dir, the offline server, the spend ledger)
and the retries; records go to the run dir and onto the test's report.

Invalid cells are retried before a verdict is taken (`--cell-retries` times, within the budget).
A fixed design retries them at the end of the session, after every other cell, so that a retry
does not meet the same minute of bad weather that made the cell invalid: the first attempt's
setup report is a `rerun` (neither an error nor a pass), and the cell's test runs again once
this process has run everything else, its outcome the one that counts. The verdict's bound on
invalid cells then has fewer cells to veto (at 10 % invalid cells at random, one retry leaves
about 1 %). A sequential design (`--until-decided`) retries at once instead: its look waits
for every cell of the run it looks at, so the retry has to come before the look.
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
from pytest_ponybench.roles.collection import cell_of
from pytest_ponybench.roles.outcome import RECORD_KEY, CellInvalid
from pytest_ponybench.scoring import checks as scoring
from pytest_ponybench.scoring import interpreter
from pytest_ponybench.scoring.workspace import Caps
from pytest_ponybench.session import integrity
from pytest_ponybench.session.run import CellContext, rescore_cell, run_cell
from pytest_ponybench.store import spend, weather
from pytest_ponybench.store.results import RunDir
from pytest_ponybench.store.slots import StartSlots

__all__ = ["CellRunner", "HarnessFault", "RERUN"]


# The outcome of a deferred cell's first report: retried at the end, so neither an error nor a
# pass yet (pytest-rerunfailures' word for the same thing, so both plugins count it alike).
RERUN = "rerun"


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
        # Cells whose invalid first attempt waits for the end of the session: id -> (the cell,
        # that attempt's record, attempts used). `at_end`: the retries are being run.
        self.deferred: dict[str, tuple[Cell, Record, int]] = {}
        self.at_end = False
        self.stop_retries: str | None = None  # why the end's retries cannot run (the session stops)

    @property
    def defers(self) -> bool:
        """Whether invalid cells wait for the end: a fixed design that runs cells and retries."""
        return (
            self.plan.sequential is None
            and self.plan.mode is not Mode.RESCORE
            and self.plan.settings.retries > 0
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
        last: Record | None = None  # the invalid attempt a deferred cell's retry starts from
        if self.at_end and cell.id in self.deferred:
            _, last, attempt = self.deferred.pop(cell.id)
            if self.stop_retries:
                return _not_retried(last, self.stop_retries)
            time.sleep(spend.backoff_s(attempt, offline))
        while True:
            attempt += 1
            # Every worker waits out one shared backoff; a tripped breaker starts no more cells.
            # A deferred cell that cannot be retried keeps its invalid attempt: an error, never
            # a skip (an invalid cell is never green).
            stopped = sky.wait_if_needed()
            if stopped:
                if last is not None:
                    return _not_retried(last, f"{weather.STOPPED}: {stopped}")
                pytest.skip(f"{weather.STOPPED}: {stopped}")
            decided = self.run_dir.stopped()
            if decided:  # --until-decided: the design needs no more cells
                pytest.skip(f"sequential: {decided}")
            refused = ledger.acquire(cell.id)
            if refused:
                if last is not None:
                    return _not_retried(last, refused)
                pytest.skip(refused)
            rec = Record()
            try:
                rec = run_cell(cell, self.context(cell))
            finally:
                ledger.release(cell.id, _spent(rec))
            stopped = sky.observe(rec, number(rec.get("retry_after_s")))
            if attempt > s.retries or not spend.retryable(rec) or stopped:
                return rec
            if self.defers and not self.at_end:
                self.deferred[cell.id] = (cell, rec, attempt)  # retried once every other cell ran
                return rec
            last = rec
            time.sleep(spend.backoff_s(attempt, offline))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """An invalid cell's error shows its reason alone, not the fixture's source lines."""
        rep = yield
        if call.excinfo is not None and call.excinfo.errisinstance(CellInvalid):
            rep.longrepr = f"CellInvalid: {call.excinfo.value}"
            cell = cell_of(self.plan, item)
            if rep.when == "setup" and cell is not None and cell.id in self.deferred and not self.at_end:
                rep.outcome = RERUN  # type: ignore[assignment]  # its retry at the end decides
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

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        """Once this process ran every cell it was given (xdist's workers: after the last one),
        the deferred cells' tests run again, each with the retries it has left."""
        result = yield
        self.retry_deferred(session)
        return result

    def retry_deferred(self, session: pytest.Session) -> None:
        if not self.deferred:
            return
        self.at_end = True
        if session.shouldstop or session.shouldfail:
            self.stop_retries = f"the session stopped ({session.shouldstop or session.shouldfail})"
        index = {
            c.id: i for i, item in enumerate(session.items) if (c := cell_of(self.plan, item)) is not None
        }
        # xdist's worker reports every test under the index of the item it ran last, and checks
        # that it is the report's: a retry tells it which item runs now.
        worker = next(
            (p for p in self.config.pluginmanager.get_plugins() if type(p).__name__ == "WorkerInteractor"),
            None,
        )
        for cell_id in list(self.deferred):
            at = index.get(cell_id)
            if at is None:
                continue
            if session.shouldstop and not self.stop_retries:  # a retry stopped the session
                self.stop_retries = f"the session stopped ({session.shouldstop})"
            item = session.items[at]
            if worker is not None:
                worker.item_index = at
            # A fresh fixture request and properties: the first attempt's are spent.
            init = getattr(item, "_initrequest", None)
            if callable(init):
                init()
            item.user_properties.clear()
            item.ihook.pytest_runtest_protocol(item=item, nextitem=None)

    def pytest_sessionfinish(self) -> None:
        warm.shutdown()  # reaped here, so its CPU counts in this process's children
        self.gateway.stop()
        self.server.stop()


def _not_retried(rec: Record, why: str) -> Record:
    """The invalid attempt that stands, saying why it was not retried (the record on disk is the
    attempt's own; this is what the test reports)."""
    return Record(**{**rec, "error": f"{rec.get('error')}; not retried: {why}"})


def _spent(rec: Record) -> float | None:
    """What a cell cost the budget: the agent's session and its judge's calls."""
    agent_usd, judge_usd = number(rec.get("cost_usd")), number(rec.get("judge_cost_usd"))
    if agent_usd is None and judge_usd is None:
        return None
    return (agent_usd or 0.0) + (judge_usd or 0.0)
