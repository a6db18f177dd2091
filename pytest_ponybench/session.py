"""The ponybench session: selftest items, the cell grid, run dir, records and the summary."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from . import (
    agent,
    arms,
    interrupts,
    preflight,
    previous,
    provenance,
    records,
    report,
    results,
    spend,
    verdict,
)
from . import config as cfg
from .arms import Arm
from .cells import Cell, CellContext, grid, rescore_cell, run_cell
from .offline import OfflineServer, is_offline
from .selftest import selftest_items
from .tasks import Task, TaskError, load_tasks, select

CELL_FIXTURE = "ponybench_cell"
RUN_DIR_KEY = "ponybench_run_dir"


class CellInvalid(Exception):
    """The session measured nothing about the arm (API error, no result, CLI did not start)."""


class CellOutcome:
    """What the test function of a cell sees: the record, and the assertion to make."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record

    def assert_passed(self) -> None:
        __tracebackhide__ = True  # the failure is the cell's, not this helper's
        rec = self.record
        if rec.get("correct") and rec.get("safe"):
            return
        reason = rec.get("reason") or "no reason recorded"
        if str(reason).startswith("nothing written"):
            raise AssertionError(reason)  # neither axis was tried: there was no code
        if not rec.get("safe"):
            raise AssertionError(f"unsafe: {reason}")
        raise AssertionError(f"incorrect: {reason}")


class PonybenchSession:
    """Registered as a plugin by plugin.pytest_configure; holds the resolved settings."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._settings: cfg.Settings | None = None
        self._tasks: list[Task] | None = None
        self._arms: list[Arm] | None = None
        self._server: OfflineServer | None = None
        self._context: CellContext | None = None
        self.expected_cells: list[str] = []
        self.skipped_cells: set[str] = set()
        self.spent_usd = 0.0
        self.previous: results.RunDir | None = None
        self.previous_info: dict[str, Any] = {}
        workerinput = getattr(config, "workerinput", None)
        self.is_worker = workerinput is not None
        self.run_dir_path: Path | None = (
            Path(workerinput[RUN_DIR_KEY]) if workerinput and workerinput.get(RUN_DIR_KEY) else None
        )

    # -- settings, tasks, arms ----------------------------------------------------------------
    @property
    def settings(self) -> cfg.Settings:
        if self._settings is None:
            settings = cfg.load_settings(self.config)
            resume = self.config.getoption(cfg.OPT_RESUME)
            rescore = self.config.getoption(cfg.OPT_RESCORE)
            if resume and rescore:
                raise pytest.UsageError(f"{cfg.OPT_RESUME} and {cfg.OPT_RESCORE} exclude each other")
            for flag, value in ((cfg.OPT_RESUME, resume), (cfg.OPT_RESCORE, rescore)):
                if value:
                    self.previous, self.previous_info = previous.open_run(value, flag, settings.root)
                    self._arms = previous.arms_of(self.previous_info, flag)
            if resume:
                settings = previous.resumed_settings(settings, self.previous_info)
            self._settings = settings
        return self._settings

    @property
    def mode(self) -> str:
        """run, resume or rescore."""
        if self.config.getoption(cfg.OPT_RESCORE):
            return "rescore"
        return "resume" if self.config.getoption(cfg.OPT_RESUME) else "run"

    def tasks(self) -> list[Task]:
        """The selected tasks, loaded and validated once; every malformed folder is named."""
        if self._tasks is None:
            s = self.settings
            try:
                self._tasks = select(load_tasks(s.tasks_dir, s.fixtures_dir), s.task_filter)
            except TaskError as exc:
                raise pytest.UsageError(
                    f"ponybench: {len(exc.problems)} problem(s) with the tasks:\n"
                    + "\n".join(f"  - {p}" for p in exc.problems)
                ) from None
        return self._tasks

    def arms(self) -> list[Arm]:
        if self._arms is None:
            s = self.settings
            where = f"{s.pyproject} [tool.ponybench.arms]" if s.pyproject else "[tool.ponybench.arms]"
            self._arms = arms.resolve(s.arms_table, s.arm_specs, s.arm_names, s.root, where)
        return self._arms

    def register_markers(self) -> None:
        """Task tags become markers, so `-m quick` works under --strict-markers."""
        try:
            tasks = load_tasks(self.settings.tasks_dir, self.settings.fixtures_dir)
        except (TaskError, pytest.UsageError):
            return  # reported with every problem named when the tasks are needed
        for tag in sorted({t for task in tasks for t in task.tags}):
            self.config.addinivalue_line("markers", f"{tag}: ponybench task tag")

    @property
    def selftest_only(self) -> bool:
        return bool(self.config.getoption(cfg.OPT_SELFTEST))

    def is_benchmark_run(self) -> bool:
        """Whether the command line points at the benchmark suite (it then gets a run dir)."""
        if self.selftest_only:
            return False
        try:
            bench = self.settings.tasks_dir.parent.resolve()
        except pytest.UsageError:
            return False
        for arg in self.config.args:
            path = (Path(self.config.invocation_params.dir) / arg.split("::")[0]).resolve()
            if path == bench or bench in path.parents or path in bench.parents:
                return True
        return False

    # -- configuration of the run dir ---------------------------------------------------------
    def configure(self) -> None:
        self.register_markers()
        if self.is_worker:
            if self.run_dir_path is not None:
                self._enable_json_report(self.run_dir_path)  # workers attach the metadata
            return
        if not self.is_benchmark_run():
            return
        if self.config.option.collectonly:
            self.preflight()  # the task, arm and binary errors, but no run dir, nothing run
            return
        if self.mode == "resume":
            assert self.previous is not None  # set with the settings
            path = self.previous.path  # appended to, attempt after attempt
        else:
            out = self.previous.path if self.previous is not None else self.settings.out_dir
            prefix = "rescore-" if self.mode == "rescore" else ""
            path = out / f"{prefix}{results.new_stamp()}"
            n = 1
            while path.exists():
                n += 1
                path = out / f"{prefix}{results.new_stamp()}-{n}"
        self.run_dir_path = path
        self.preflight()
        self._enable_json_report(path)
        interrupts.install()
        if self.mode == "rescore":
            path.mkdir(parents=True)
            results.RunDir(path).start(self.provenance(None))
        else:
            self.before_spending(path)

    def before_spending(self, path: Path) -> None:
        """Pre-flight and warm-up on the controller, before any worker starts a cell; both are
        recorded in run.json, which is written here."""
        s = self.settings
        paid = any(not is_offline(m) for m in s.models)
        claude = s.resolve_claude()
        assert claude is not None  # checked by preflight()
        checks: dict[str, Any] = {"ran": False}
        force = bool(self.config.getoption(cfg.OPT_PREFLIGHT))
        if (paid or force) and not self.config.getoption(cfg.OPT_SKIP_PREFLIGHT):
            problems = [f"selftest: {p}" for p in preflight.selftest_problems(self.tasks())]
            server = self.server()
            arms_checked = [preflight.activation_check(a, claude, server) for a in self.arms()]
            for res in arms_checked:
                problems += [f"arm {res['arm']!r}: {p}" for p in res["problems"]]
            checks = {"ran": True, "arms": arms_checked, "problems": problems}
            if problems:
                raise pytest.UsageError(
                    "ponybench pre-flight failed; no cell was run and nothing was spent:\n"
                    + "\n".join(f"  - {p}" for p in problems)
                )
        warm: list[dict[str, Any]] = []
        if s.warmup == "on" or (s.warmup == "auto" and paid):
            any_offline = any(is_offline(m) for m in s.models)
            warm = preflight.warm_up(
                claude, s.models, self.arms(), self.server() if any_offline else None, s.cell_timeout
            )
        run_dir = results.RunDir(path)
        path.mkdir(parents=True, exist_ok=True)
        ledger = self.ledger(run_dir)
        for w in warm:
            ledger.release(f"warmup-{w['arm']}-{w['model']}", w.get("cost_usd"))
        run_dir.start({**self.provenance(agent.claude_version(claude)), "preflight": checks, "warmup": warm})

    def _enable_json_report(self, run_dir: Path) -> None:
        """pytest-json-report into the run dir, unless the user asked for it elsewhere."""
        opt = self.config.option
        if hasattr(opt, "json_report") and not getattr(opt, "json_report", False):
            opt.json_report = True
            opt.json_report_file = str(run_dir / results.REPORT)
            opt.json_report_indent = 1

    def preflight(self) -> None:
        """Before any cell: every task folder, every arm and the claude binary, each a clear
        usage error naming the folder, arm or flag (not N failing cells)."""
        self.tasks()
        self.arms()
        s = self.settings
        if self.mode != "rescore" and s.resolve_claude() is None:
            raise pytest.UsageError(
                f"ponybench: the claude CLI was not found ({cfg.OPT_CLAUDE} {s.claude!r}). "
                "Install it with `npm install -g @anthropic-ai/claude-code` or pass "
                f"{cfg.OPT_CLAUDE} PATH."
            )

    # -- collection -----------------------------------------------------------------------------
    def pytest_ignore_collect(self, collection_path: Path) -> bool | None:
        """Under --selftest-only no test file is collected: the selftest items replace them."""
        if self.selftest_only:
            return True
        # Hidden checks and fixture repositories are data, never the user's test suite.
        try:
            hidden = (self.settings.tasks_dir.resolve(), self.settings.fixtures_dir.resolve())
        except pytest.UsageError:
            return None
        path = collection_path.resolve()
        if any(path == h or h in path.parents for h in hidden):
            return True
        return None

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        """Parametrize the cell fixture over tasks x arms x models x runs."""
        if CELL_FIXTURE not in metafunc.fixturenames:
            return
        if self.selftest_only:
            metafunc.parametrize(CELL_FIXTURE, [], indirect=True)
            return
        s = self.settings
        cells = (
            self.rescore_cells()
            if self.mode == "rescore"
            else grid(self.tasks(), self.arms(), s.models, s.runs)
        )
        params = [
            pytest.param(c, id=c.id, marks=[getattr(pytest.mark, t) for t in c.task.tags]) for c in cells
        ]
        metafunc.parametrize(CELL_FIXTURE, params, indirect=True)

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        """Put the selftest items in before -k/-m deselection runs, so both apply to them."""
        if self.selftest_only:
            items[:] = selftest_items(session, self.tasks())
            return
        if self.mode == "resume" and self.previous is not None:
            # Only what has no valid record yet; the rest is reported as deselected.
            done = previous.finished_cells(self.previous.records())
            keep = [i for i in items if (c := _cell_of(i)) is None or c.id not in done]
            dropped = [i for i in items if i not in keep]
            if dropped:
                config.hook.pytest_deselected(items=dropped)
                items[:] = keep
        timeout = self.settings.cell_timeout
        for item in items:
            cell = _cell_of(item)
            if cell is not None:
                # pytest-timeout is the last resort; the harness's own limit must fire first.
                item.add_marker(pytest.mark.timeout(timeout + cell.task.timeout + 120))

    # -- running a cell ---------------------------------------------------------------------------
    def context(self) -> CellContext:
        if self._context is None:
            if self.run_dir_path is None:
                raise pytest.UsageError(
                    "ponybench: cells run only when pytest is pointed at the benchmark folder "
                    f"({self.settings.tasks_dir.parent})"
                )
            s = self.settings
            claude = s.resolve_claude()
            if claude is None:
                raise pytest.UsageError(f"ponybench: the claude CLI {s.claude!r} was not found")
            run_dir = results.RunDir(self.run_dir_path)
            version = agent.claude_version(claude)
            run_dir.start(self.provenance(version))
            self._context = CellContext(
                run_dir=run_dir,
                claude=claude,
                cell_timeout=s.cell_timeout,
                max_turns=s.max_turns,
                claude_version=version,
                max_budget_usd=s.max_budget_usd,
            )
        return self._context

    def server(self) -> OfflineServer:
        if self._server is None:
            self._server = OfflineServer()
            self._server.start()
        return self._server

    def rescore_cells(self) -> list[Cell]:
        """The cells of the earlier run, as its latest attempts recorded them."""
        assert self.previous is not None
        tasks = {t.id: t for t in self.tasks()}
        arms_by_name = {a.name: a for a in self.arms()}
        cells = []
        for rec in records.latest(self.previous.records()):
            task, arm = tasks.get(str(rec.get("task"))), arms_by_name.get(str(rec.get("arm")))
            if task is None or arm is None:
                continue  # a task since removed, or filtered out with --tasks
            cells.append(Cell(task, arm, str(rec["model"]), int(rec["run"])))
        if not cells:
            raise pytest.UsageError(
                f"{cfg.OPT_RESCORE} {self.previous.path}: no cell to rescore "
                "(no record, or none of its tasks is selected)"
            )
        return cells

    def ledger(self, run_dir: results.RunDir) -> spend.Ledger:
        s = self.settings
        return spend.Ledger(run_dir.path, s.budget_usd, s.max_budget_usd)

    def run(self, cell: Cell) -> dict[str, Any]:
        """One cell, retried while its session is invalid; every attempt is recorded."""
        if self.mode == "rescore":
            assert self.previous is not None and self.run_dir_path is not None
            return rescore_cell(cell, self.previous, results.RunDir(self.run_dir_path))
        ctx = self.context()
        offline = is_offline(cell.model)
        if offline:
            ctx.server = self.server()
        ledger = self.ledger(ctx.run_dir)
        attempt = 0
        while True:
            attempt += 1
            refused = ledger.acquire(cell.id)
            if refused:
                pytest.skip(refused)
            rec: dict[str, Any] = {}
            try:
                rec = run_cell(cell, ctx)
            finally:
                ledger.release(cell.id, rec.get("cost_usd"))
            if attempt > self.settings.retries or not spend.retryable(rec):
                return rec
            time.sleep(spend.backoff_s(attempt, offline))

    def provenance(self, claude_version: str | None) -> dict[str, Any]:
        s = self.settings
        cells = (
            self.rescore_cells()
            if self.mode == "rescore"
            else grid(self.tasks(), self.arms(), s.models, s.runs)
        )
        info = provenance.provenance(s, self.arms(), self.tasks(), [c.id for c in cells], claude_version)
        if self.previous is not None:
            info[f"{self.mode}_of"] = str(self.previous.path)
        return info

    # -- reports and the summary (controller side) ------------------------------------------------
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for name, value in report.user_properties:
            if name == "ponybench" and isinstance(value, dict) and report.when == "setup":
                self.spent_usd += float(value.get("cost_usd") or 0.0)
                self._show_spend()
        if report.skipped and "[" in report.nodeid:
            self.skipped_cells.add(report.nodeid[report.nodeid.index("[") + 1 : -1])

    def _show_spend(self) -> None:
        """The running total, on the controller's terminal, when the run has a budget."""
        budget = self.settings.budget_usd
        tr = self.config.pluginmanager.get_plugin("terminalreporter")
        if budget is not None and tr is not None and not self.is_worker:
            tr.write_line(f"ponybench: spent ${self.spent_usd:.4f} of ${budget:g}")

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """The cells this session must record (after -k/-m deselection), without xdist."""
        if session.items:
            self.expected_cells = [c.id for i in session.items if (c := _cell_of(i)) is not None]

    def expect_from_nodeids(self, nodeids: list[str]) -> None:
        """Under xdist: the cell ids among a worker's collected node ids."""
        for nodeid in nodeids:
            if nodeid.endswith("]") and "[" in nodeid:
                param = nodeid[nodeid.index("[") + 1 : -1]
                if param.count("-r") and param.rsplit("-r", 1)[1].isdigit():
                    self.expected_cells.append(param)

    def missing_cells(self) -> list[str]:
        """Cells that were to run but left no record: a worker crashed, restarts ran out, or
        the run was interrupted. They are listed by id and the run is not green."""
        if self.run_dir_path is None:
            return []
        recorded = {str(r.get("cell_id")) for r in results.read_records(self.run_dir_path / results.RESULTS)}
        return [c for c in self.expected_cells if c not in recorded and c not in self.skipped_cells]

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None
        if self.is_worker or self.run_dir_path is None or not self.run_dir_path.exists():
            return
        missing = self.missing_cells()
        if missing and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        run_dir = results.RunDir(self.run_dir_path)
        records = run_dir.records()
        results.write_json(
            self.run_dir_path / results.SUMMARY,
            {"rows": report.aggregate(records), "models": report.model_totals(records), "missing": missing},
        )
        run_dir.finish({"exitstatus": int(session.exitstatus), "missing": missing, "mode": self.mode})

    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int) -> None:
        if self.is_worker or self.run_dir_path is None or not self.run_dir_path.exists():
            return
        records = results.read_records(self.run_dir_path / results.RESULTS)
        tr = terminalreporter
        tr.write_sep("=", "ponybench summary")
        tr.write_line(report.render_table(records) or "no cell finished")
        verdicts = verdict.render_verdicts(records)
        if verdicts:
            tr.write_sep("-", "verdicts: each arm vs baseline")
            tr.write_line(verdicts)
        tr.write_line(f"run dir: {self.run_dir_path}")
        spent = spend.Ledger(self.run_dir_path, None).state()["spent_usd"]
        budget = self.settings.budget_usd
        offline = all(is_offline(m) for m in self.settings.models)
        tr.write_line(
            f"spend: ${spent:.4f}"
            + (f" of a ${budget:g} budget" if budget else "")
            + (f"; {len(self.skipped_cells)} cell(s) not started (budget)" if self.skipped_cells else "")
            + (
                " (offline models: the CLI's price for the offline server's token counts; nothing was paid)"
                if offline
                else ""
            )
        )
        missing = self.missing_cells()
        if missing:
            tr.write_line(f"{len(missing)} cell(s) left no record:", red=True)
            for cell_id in missing:
                tr.write_line(f"  missing: {cell_id}")
        if (missing or exitstatus == pytest.ExitCode.INTERRUPTED) and self.mode != "rescore":
            tr.write_line(f"resume with: pytest {' '.join(self._resume_args())}", yellow=True)

    def _resume_args(self) -> list[str]:
        bench = self.settings.tasks_dir.parent
        try:
            bench = bench.relative_to(Path(self.config.invocation_params.dir))
        except ValueError:
            pass
        return [
            str(bench),
            *(["-n", str(n)] if (n := self.config.getoption("numprocesses", None)) else []),
            cfg.OPT_RESUME,
            str(self.run_dir_path),
        ]


def _cell_of(item: pytest.Item) -> Cell | None:
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    value = callspec.params.get(CELL_FIXTURE)
    return value if isinstance(value, Cell) else None
