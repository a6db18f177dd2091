"""The controller role: the run dir's life, from pre-flight to summary.

Registered once per benchmark session, in the process that owns the terminal (the xdist
controller, or the only process without xdist). It alone writes run.json (a `RunInfo`, through
the run dir) and summary.json; it runs the pre-flight before any worker starts a cell, and at
the end compares the cells it expected with the records on disk, so a crashed worker's cells
are named missing.
"""

from __future__ import annotations

import importlib
import json
import os
import threading
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench._util.paths import PACKAGE_ROOT
from pytest_ponybench.agents import registry
from pytest_ponybench.analysis import agents, estimate, report
from pytest_ponybench.core import shards
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.gateway.routes import Routes
from pytest_ponybench.gateway.server import shared
from pytest_ponybench.htmlreport.reportjob import BackgroundReport
from pytest_ponybench.isolation import confine, sandbox
from pytest_ponybench.offline.endpoint import OfflineEndpoint
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.plan import preflight, pricing
from pytest_ponybench.plan.options import OPT_ALLOW_UNCONFINED, OPT_RESCORE, OPT_RESUME, Mode
from pytest_ponybench.plan.plan import Plan
from pytest_ponybench.plan.sessions import judging_of, routes_of
from pytest_ponybench.roles.collection import cell_of, expected_failure
from pytest_ponybench.roles.handoff import AGENT_VERSIONS_KEY, REPORT_PARTIAL, RUN_DIR_KEY, enable_json_report
from pytest_ponybench.roles.proofcache import proofs_of
from pytest_ponybench.session import interrupts
from pytest_ponybench.store import owner, results, spend, weather

__all__ = ["Controller", "XdistController", "confinement", "new_run_dir"]


def new_run_dir(plan: Plan) -> owner.Hold:
    """runs/<stamp>/ for a run, <earlier>/rescore-<stamp>/ for a rescore (each claimed: a new
    folder of this session alone), held from before anything is written into it."""
    assert plan.mode is not Mode.RESUME
    out = plan.previous.path if plan.previous is not None else plan.settings.out_dir
    prefix = "rescore-" if plan.mode is Mode.RESCORE else ""
    return owner.claim(out, prefix, results.new_stamp)


def _load_report_libraries() -> None:
    try:
        importlib.import_module("pytest_ponybench.htmlreport.build")
    except Exception:  # noqa: S110  (write_report imports it again and records the error)
        pass


class Controller:
    """Run dir, pre-flight, run.json, summary.json and missing cells."""

    def __init__(self, config: pytest.Config, plan: Plan) -> None:
        self.config = config
        self.plan = plan
        # The resumed run dir, or where a new one will be claimed (its name is taken in start()).
        resumed = plan.previous if plan.mode is Mode.RESUME else None
        planned = resumed.path if resumed is not None else plan.settings.out_dir
        self.run_dir = results.RunDir(planned)
        self._holds: list[owner.Hold] = []  # released when the session ends (pytest_unconfigure)
        self.owned = False  # whether this session holds self.run_dir: only then is it written
        self.claude_version: str | None = None
        self.agent_versions: dict[str, str | None] = {}  # each agent of the grid (claude's too)
        self.expected: list[str] = []
        self.skipped: set[str] = set()  # not started: the budget, or a sequential run decided
        self.decided_skips = 0  # of those, the cells --until-decided did not need
        self.write_error: str | None = None  # why summary.json or run.json could not be written
        self._report: BackgroundReport | None = None
        self.json_report_elsewhere: Path | None = None  # the user's --json-report-file
        self.estimate: list[estimate.Line] = []  # a paid run's price, before its first cell
        self.preflight_lines: list[str] = []  # one per arm: its activation check, ok or its problems
        self._activation: preflight.ActivationInBackground | None = None  # an offline run's, running
        self._wrote_run_json = False  # this session's run.json (a resumed run keeps its own)
        self._server: OfflineServer | None = None
        self._server_lock = threading.Lock()

    # -- before any cell ----------------------------------------------------------------------
    def start(self) -> None:
        """Everything that must hold before the first cell; run.json is written here, once."""
        try:
            self._start()
        except BaseException:
            self.release()
            raise

    def _start(self) -> None:
        plan = self.plan
        extra: dict[str, Any] = {}
        if plan.previous is not None:
            # Before the pre-flight: a second session on this run dir is refused before it
            # spends a warm-up, and a rescore reads a run that no session is still writing.
            flag = OPT_RESUME if plan.mode is Mode.RESUME else OPT_RESCORE
            shared = plan.mode is Mode.RESCORE
            self._holds.append(owner.hold(plan.previous.path, flag, shared=shared))
            self.owned = plan.mode is Mode.RESUME  # appended to, attempt after attempt
        for name, binary in plan.binaries.items():
            self.agent_versions[name] = registry.get(name).version(binary)
        if plan.claude is not None:
            self.claude_version = self.agent_versions.get("claude") or registry.get().version(plan.claude)
        if plan.mode is not Mode.RESCORE:
            extra = self._before_spending()
        # Read before the claim: a new dir's lock file is no change of the project's checkout
        # (git_dirty), nor of a plugin that holds the runs folder.
        info = plan.provenance(self.claude_version, self.agent_versions)
        if extra:
            estimate_usd = extra.get("estimate_usd")
            info = replace(
                info,
                preflight=extra["preflight"],
                warmup=tuple(extra["warmup"]),
                confinement=extra["confinement"],
                estimate_usd=None if estimate_usd is None else tuple(estimate_usd),
            )
        try:
            if not self.owned:
                claimed = new_run_dir(plan)
                self._holds.append(claimed)
                self.run_dir, self.owned = results.RunDir(claimed.path), True
            for w in extra.get("warmup", []):  # ran before the run dir was claimed: charged now
                on = f"-{w['agent']}" if "agent" in w else ""
                self.ledger().charge(float(w.get("cost_usd") or 0.0))
                self.ledger().release(f"warmup-{w['arm']}-{w['model']}{on}", w.get("cost_usd"))
            self._wrote_run_json = self.run_dir.start(info)
        except OSError as exc:
            raise PonybenchError(
                f"ponybench: the run dir {self.run_dir.path} cannot be written: {exc}"
            ) from None
        self.json_report_elsewhere = enable_json_report(self.config, self.run_dir.path)
        interrupts.install()
        if not self.plan.settings.no_report:
            # The report's modules (about 0.05 s of CPU) load while the cells run,
            # where the controller mostly waits, instead of after the last cell.
            threading.Thread(
                target=_load_report_libraries, name="ponybench-report-import", daemon=True
            ).start()

    def _before_spending(self) -> dict[str, Any]:
        """Pre-flight (selftest of the selected tasks, arm activation) and warm-up; both are
        recorded in run.json. A failed pre-flight is a usage error: nothing ran, nothing spent.
        An offline run gets the arms' activation check alone (offline and cheap), said one line
        per arm and never refused: its cells record the arm's health (`arm_errors`)."""
        plan, s = self.plan, self.plan.settings
        refused = confine.refusal(list(plan.live_models), s.allow_unconfined, OPT_ALLOW_UNCONFINED)
        if refused:
            raise PonybenchError(refused)
        if plan.paid and plan.mode is Mode.RUN:
            self.estimate = self._price()
        checks: dict[str, Any] = {"ran": False}
        full = (plan.paid or s.preflight) and not s.skip_preflight
        if not full and not s.skip_preflight:
            if any(arm.parts for arm in plan.arms):
                # Never refusing, so it runs while the workers start; activation_done waits.
                # The offline server starts only if a check runs (none when every arm's proof
                # was kept).
                self._activation = preflight.ActivationInBackground(
                    plan.arms, self._agents(), self.routes, preflight.REFUSED_NOTE, proofs_of(self.config)
                )
                checks = {"ran": False, "scope": "activation"}  # until activation_done
            else:
                checks = self._activation_checks(
                    preflight.activation_lines(
                        plan.arms, self._agents(), self.routes, baseline=False, note=preflight.REFUSED_NOTE
                    )
                )
        if full:
            problems = [f"selftest: {p}" for p in preflight.selftest_problems(plan.tasks)]
            arms_checked, self.preflight_lines = preflight.activation_lines(
                plan.arms, self._agents(), self.routes
            )
            for res in arms_checked:
                on = f" on {res['agent']}" if "agent" in res else ""
                problems += [f"arm {res['arm']!r}{on}: {p}" for p in res["problems"]]
            # Free (a token count): is each live model's API reachable, are the credentials taken.
            apis = [weather.check_api(m) for m in plan.live_models]
            problems += [a.describe() for a in apis if not a.ok]
            calibration: list[dict[str, Any]] = []
            judging = judging_of(
                plan, self.routes(offline=False), (s.tasks_dir, s.fixtures_dir, PACKAGE_ROOT, Path.cwd())
            )
            if judging is not None and judging.model in plan.live_models and not problems:
                # A live judge is proven on the references before it judges paid cells.
                found, calibration = preflight.judge_calibration(plan.tasks, judging)
                problems += found
            checks = {
                "ran": True,
                "api": [{"model": a.model, "ok": a.ok, "verdict": a.verdict} for a in apis],
                "arms": arms_checked,
                "judge": calibration,
                "problems": problems,
            }
            if problems:
                raise PonybenchError(
                    "ponybench pre-flight failed; no cell was run and nothing was spent:\n"
                    + "\n".join(f"  - {p}" for p in problems)
                )
        warm: list[dict[str, Any]] = []
        if s.warmup == "on" or (s.warmup == "auto" and plan.paid):
            routes = self.routes(offline=plan.offline)
            for agent, binary in self._agents():
                warm += preflight.warm_up(
                    binary, list(s.models), list(plan.arms), routes, s.cell_timeout, agent=agent
                )
        priced = {"estimate_usd": list(estimate.totals(self.estimate))} if self.estimate else {}
        return {"preflight": checks, "warmup": warm, "confinement": confinement(), **priced}

    def _activation_checks(self, checked: tuple[list[dict[str, Any]], list[str]]) -> dict[str, Any]:
        """run.json's preflight for an offline run's activation checks; their lines kept."""
        arms_checked, self.preflight_lines = checked
        found = [f"arm {res['arm']!r}: {p}" for res in arms_checked for p in res["problems"]]
        return {"ran": True, "scope": "activation", "arms": arms_checked, "problems": found}

    def activation_done(self) -> None:
        """Wait for the activation checks running in the background, if any: their lines for
        the header, their results into run.json. A bad arm they found is a usage error, as it
        is when they run before the session starts."""
        job, self._activation = self._activation, None
        if job is None:
            return
        try:
            checks = self._activation_checks(job.result())
        except PonybenchError as exc:
            raise pytest.UsageError(str(exc)) from None
        if self.owned and self._wrote_run_json:
            self.run_dir.update(preflight=checks)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self) -> None:
        self.activation_done()  # before the first cell (the terminal's header waits too)

    def _agents(self) -> list[tuple[str, str]]:
        """(agent, its binary) for each agent of the grid, in the order --agents gives them."""
        return [(a, self.plan.binaries[a]) for a in self.plan.settings.agents if a in self.plan.binaries]

    def _price(self) -> list[estimate.Line]:
        """The price before paying; a run whose estimate's low end is over its budget is refused."""
        lines = pricing.lines(self.plan, self.agent_versions)
        low, high = estimate.totals(lines)
        budget = self.plan.settings.budget_usd
        if budget is not None and low > budget:
            raise PonybenchError(
                f"ponybench: this run is estimated at ${low:,.2f}-${high:,.2f}, and even the low end is "
                f"over --budget-usd {budget:g}; nothing was run. Narrow the grid, or see the estimate "
                "with --dry-run."
            )
        return lines

    def server(self) -> OfflineServer:
        with self._server_lock:  # the activation checks' thread and a warm-up may both ask
            if self._server is None:
                self._server = OfflineServer()
                self._server.start()
            return self._server

    def routes(self, offline: bool = True) -> Routes:
        """The pre-flight's and the warm-up's sessions, through this process's gateway (before
        the run dir is claimed, so what they cost is charged once it is)."""
        endpoint = OfflineEndpoint(self.server()) if offline else None
        return routes_of(self.plan, shared(), endpoint)

    def ledger(self) -> spend.Ledger:
        s = self.plan.settings
        return spend.Ledger(self.run_dir.path, s.budget_usd, s.max_budget_usd)

    # -- bookkeeping --------------------------------------------------------------------------
    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """The cells this session must record (after -k/-m deselection), without xdist."""
        if session.items:
            self.expect(c.id for i in session.items if (c := cell_of(self.plan, i)) is not None)

    def expect(self, cell_ids: Any) -> None:
        for cell_id in cell_ids:
            if cell_id not in self.expected:
                self.expected.append(cell_id)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """A cell the budget skipped is not missing: it was never started, on purpose. One the
        weather's breaker kept from starting is: a resume runs it."""
        expected_failure = hasattr(report, "wasxfail")  # it ran, and failed as intended
        if (
            report.skipped
            and not expected_failure
            and (cell := cell_of(self.plan, report.nodeid)) is not None
        ):
            if weather.STOPPED not in str(report.longrepr):
                self.skipped.add(cell.id)
                self.decided_skips += "sequential:" in str(report.longrepr)

    def expected_failures(self) -> dict[str, str]:
        """cell id -> how it must fail, for the cells whose offline agent fails on purpose."""
        return {c.id: known[1] for c in self.plan.cells if (known := expected_failure(c)) is not None}

    def missing_cells(self) -> list[str]:
        """Cells that were to run but left no record: a worker crashed, restarts ran out, or
        the run was interrupted. They are listed by id and the run is not green."""
        recorded = {str(r.get("cell_id")) for r in self.run_dir.records()}
        return [c for c in self.expected if c not in recorded and c not in self.skipped]

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> Generator[None, None, None]:
        """summary.json and run.json, then the HTML report on a thread while the other plugins
        finish (xdist waits for its workers to exit; the terminal summary is rendered); the
        report is waited for before its outcome is printed and before this hook returns."""
        self.finish(session)
        try:
            yield
        finally:
            self.report_outcome()

    def finish(self, session: pytest.Session) -> None:
        try:
            self.activation_done()  # a session that never reached its cells
        except pytest.UsageError:
            pass  # no cell ran: there is nothing it could have stopped
        if self._server is not None:
            self._server.stop()
            self._server = None
        if not self.owned:
            return  # refused, or stopped before its run dir was claimed: nothing of ours to write
        missing = self.missing_cells()
        if missing and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        records = self.run_dir.records()
        named = agents.by_agent(records)  # each agent's cells apart, as every figure reads them
        try:
            results.write_json(
                self.run_dir.path / results.SUMMARY,
                {
                    "rows": report.aggregate(named),
                    "models": report.model_totals(named),
                    "missing": missing,
                    # The cells that must fail as their offline agent intends (strict xfails):
                    # the report shows them as expected failures, as the terminal counts them.
                    "expected_failures": self.expected_failures(),
                },
            )
            self.run_dir.finish(int(session.exitstatus), missing)
        except OSError as exc:
            self.write_error = f"{type(exc).__name__}: {exc}"
            session.exitstatus = pytest.ExitCode.INTERNAL_ERROR
            return
        if not self.plan.settings.no_report:
            self._report = BackgroundReport(self._write_report)
            self._report.start()

    def _write_report(self) -> Path:
        from pytest_ponybench.htmlreport import write_report

        return write_report(self.run_dir.path)

    def report_outcome(self) -> tuple[Path | None, str | None]:
        """The HTML report's path, or why it was not written (waits for it); (None, None) when
        none was to be written."""
        return self._report.outcome() if self._report is not None else (None, None)

    @property
    def report_path(self) -> Path | None:
        return self.report_outcome()[0]

    @property
    def report_error(self) -> str | None:
        return self.report_outcome()[1]

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self) -> None:
        """After pytest-json-report wrote its file: keep it only whole, under its real name;
        then the run dir is let go, its last write done."""
        try:
            if self.owned:
                self._keep_json_report()
        finally:
            self.release()

    def _keep_json_report(self) -> None:
        partial = self.run_dir.path / REPORT_PARTIAL
        if not partial.exists():
            return
        try:
            json.loads(partial.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            partial.unlink(missing_ok=True)  # truncated: the records in results.jsonl stand
            return
        os.replace(partial, self.run_dir.path / results.REPORT)

    def release(self) -> None:
        """Let go of every run dir this session holds (its process's end would, too); nothing is
        written into the run dir after."""
        for held in self._holds:
            held.release()
        self._holds.clear()
        self.owned = False

    def resume_command(self) -> str | None:
        """How to finish this run, or None where resuming means nothing (rescore)."""
        if self.plan.mode is Mode.RESCORE:
            return None
        bench = self.plan.settings.bench_dir
        try:
            bench = bench.relative_to(Path(self.config.invocation_params.dir))
        except ValueError:
            pass
        workers = self.plan.settings.xdist_workers
        args = [str(bench), *(["-n", str(workers)] if workers else []), "--resume", str(self.run_dir.path)]
        return "pytest " + " ".join(args)


class XdistController:
    """Registered only with xdist: hand every worker the run dir and learn the expected cells."""

    def __init__(self, controller: Controller, dist_given: bool) -> None:
        self.controller = controller
        self.dist_given = dist_given

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[RUN_DIR_KEY] = str(self.controller.run_dir.path)
        node.workerinput[AGENT_VERSIONS_KEY] = dict(self.controller.agent_versions)

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        """The arms of a (task, model, run) block on one worker, back to back, unless the user
        chose a --dist of their own (xdist's default for -n is "load")."""
        if self.controller.plan.settings.xdist_dist != "load" or self.dist_given:
            return None
        from pytest_ponybench.roles.scheduling import BlockScheduling

        plan = self.controller.plan

        def block_of(nodeid: str) -> str | None:
            cell = cell_of(plan, nodeid)
            return shards.block_id(shards.cell_block(cell)) if cell is not None else None

        return BlockScheduling(config, log, block_of)

    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """The controller collects nothing itself: every worker collects the same items."""
        plan = self.controller.plan
        self.controller.expect(c.id for nodeid in ids if (c := cell_of(plan, nodeid)) is not None)


def confinement() -> dict[str, Any]:
    """run.json's confinement block: what the agent's and the scorer's confinement proved here
    (the agent's capability sets as a confined process reported them)."""
    return {"agent": confine.status().as_dict(), "scorer": sandbox.describe()}
