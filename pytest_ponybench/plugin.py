"""pytest entry point of pytest-ponybench: options, hook specs, role registration, the cell fixture.

A pytest run that asks for neither the selftest nor the benchmark suite registers nothing and
imports nothing beyond the options (`roles/settings`, `plan/options`). Otherwise the plan is
resolved once (plan.resolve) and only the objects this process's role needs are registered,
as xdist registers DSession only on its controller:

  selftest            SelftestCollection (+ SelftestSummary where the terminal is)
  cells, controller   Controller, SummaryReporter (+ XdistController with xdist workers)
  cells, collecting   BenchmarkCollection (xdist workers, or the only process)
  cells, running      CellRunner (xdist workers, or the only process)
"""

from __future__ import annotations

import gc
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_ponybench.core.records import Record
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.plan.options import Mode
from pytest_ponybench.roles import settings as cfg

if TYPE_CHECKING:
    from pytest_ponybench.roles.outcome import CellOutcome
    from pytest_ponybench.roles.runner import CellRunner

__all__ = [
    "RUNNER_KEY",
    "junit_properties",
    "ponybench_cell",
    "pytest_addhooks",
    "pytest_addoption",
    "pytest_configure",
    "pytest_load_initial_conftests",
]

RUNNER_KEY: pytest.StashKey[CellRunner] = pytest.StashKey()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Every option lives in the `ponybench` group, made from its row of plan.options.OPTIONS."""
    cfg.add_options(parser)


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests(
    early_config: pytest.Config, parser: pytest.Parser, args: list[str]
) -> Generator[None, None, None]:
    """Once the initial conftests have added their options, the short names nobody else took
    (`--models`, `--runs`, ...) become aliases of ours; a project's own `--models` stays its own."""
    result = yield
    cfg.alias_short_names(parser, args)
    return result


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from pytest_ponybench import hooks

    pluginmanager.add_hookspecs(hooks)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Resolve the plan and register the roles before pytest-json-report reads its options
    (tryfirst), so its report lands in the run dir. A bad input anywhere below is one
    PonybenchError, shown here (and only here) as pytest's usage error."""
    try:
        loaded = _configure(config)
    except PonybenchError as exc:
        raise pytest.UsageError(str(exc)) from None
    if not loaded:
        return
    _freeze()


def _freeze() -> None:
    """Put what is loaded now (the modules, the plan with every task's files) out of the cyclic
    collector's sight: it lives as long as the process, and collecting ten thousand items (each
    automatic collection, and the one at exit) then does not walk it again and again, about a
    fifth of a --collect-only's CPU. Objects made from here on are collected as ever; what a
    frozen object still references is freed by its count as ever. What an earlier session in
    this process froze (pytest run in-process, as by pytester) is collected first, so sessions
    one after another do not pile up."""
    if gc.get_freeze_count():
        gc.unfreeze()
        gc.collect()
    gc.freeze()


def _configure(config: pytest.Config) -> bool:
    """Whether this is a benchmark run (its plan loaded, its roles registered)."""
    requested = cfg.requested_mode(config)
    if requested is None:
        return False  # not a benchmark run: nothing registered, nothing loaded
    from pytest_ponybench.roles import planner as plan_mod

    mode, settings = requested
    plan = plan_mod.resolve(config, mode, settings)
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if plan.settings.dry_run and mode is Mode.RUN and workerinput is None:
        from pytest_ponybench.roles.dryrun import DryRun

        config.pluginmanager.register(DryRun(plan), "ponybench-dry-run")
        return True
    if workerinput is None and not plan.collect_only:
        _check_interpreter()
        from pytest_ponybench.isolation.scratch import session_dir

        session_dir()  # made now, and what killed sessions left is removed before anything runs
    pm = config.pluginmanager
    if mode is Mode.SELFTEST:
        _register_selftest(config, plan, is_worker=workerinput is not None)
        return True
    from pytest_ponybench.roles.collection import BenchmarkCollection, register_markers

    register_markers(config, plan)
    # xdist stands aside when only collecting (-n 2 --collect-only): this process collects.
    distributed = workerinput is None and plan.settings.xdist_dist != "no" and not plan.collect_only
    if not distributed:
        pm.register(BenchmarkCollection(plan), "ponybench-collection")
    if plan.collect_only:
        return True  # the plan's errors were raised; no run dir, nothing run (nor imported to run)
    from pytest_ponybench.roles.runner import CellRunner

    if workerinput is not None:
        from pytest_ponybench.roles.handoff import AGENT_VERSIONS_KEY, RUN_DIR_KEY, enable_json_report

        versions = workerinput.get(AGENT_VERSIONS_KEY) or {}
        runner = CellRunner(config, plan, Path(workerinput[RUN_DIR_KEY]), versions)
        enable_json_report(config, Path(workerinput[RUN_DIR_KEY]))  # workers attach the metadata
    else:
        from pytest_ponybench.roles.controller import Controller, XdistController
        from pytest_ponybench.roles.terminal import SummaryReporter

        controller = Controller(config, plan)
        pm.register(controller, "ponybench-controller")
        if plan.sequential is not None:
            from pytest_ponybench.roles.looks import SequentialLooks

            pm.register(SequentialLooks(controller), "ponybench-looks")
        pm.register(SummaryReporter(controller), "ponybench-terminal")
        if distributed:
            # It also schedules the arms of a block onto one worker (scheduling.py).
            dist_given = cfg.given_by_user(config, "--dist", "-d")
            pm.register(XdistController(controller, dist_given), "ponybench-xdist")
        controller.start()
        if distributed:
            return True
        runner = CellRunner(config, plan, controller.run_dir.path, controller.agent_versions)
    config.stash[RUNNER_KEY] = runner
    pm.register(runner, "ponybench-runner")
    return True


def junit_properties(record: Record) -> list[tuple[str, str]]:
    """One property per scalar metric, and one per grader (`ponybench.grader.<name>`: true,
    false or null), each a JSON value, for JUnit XML and CI test tabs."""
    import json

    scalar = (str, int, float, bool, type(None))
    out = [(f"ponybench.{k}", json.dumps(v)) for k, v in record.items() if isinstance(v, scalar)]
    for g in record.get("graders") or []:
        if isinstance(g, dict) and isinstance(g.get("name"), str):
            out.append((f"ponybench.grader.{g['name']}", json.dumps(g.get("passed"))))
    return out


def _check_interpreter() -> None:
    """Stop before anything is scored when the python the scorer imports from was changed."""
    from pytest_ponybench.scoring import interpreter

    problems = interpreter.verify()
    if problems:
        raise PonybenchError(
            "ponybench: the python install the scorer runs on was changed; nothing was run:\n"
            + "\n".join(f"  - {p}" for p in problems)
            + "\n  (reinstall the packages named, or remove the files named, then run again)"
        )


def _register_selftest(config: pytest.Config, plan: Any, is_worker: bool) -> None:
    from pytest_ponybench.roles.collection import SelftestCollection, register_markers
    from pytest_ponybench.roles.selftest import SelftestSummary

    register_markers(config, plan)
    config.pluginmanager.register(SelftestCollection(plan), "ponybench-selftest")
    if not is_worker:
        config.pluginmanager.register(SelftestSummary(), "ponybench-selftest-summary")


@pytest.fixture
def ponybench_cell(request: pytest.FixtureRequest) -> CellOutcome:
    """Run one cell in the fixture's setup: an invalid session is then a pytest error (the
    instrument failed), while a wrong or unsafe result is a test failure (the arm failed)."""
    from pytest_ponybench.core.cell import Cell
    from pytest_ponybench.roles.outcome import RECORD_KEY, CellInvalid, CellOutcome

    cell = getattr(request, "param", None)
    runner = request.config.stash.get(RUNNER_KEY, None)
    if not isinstance(cell, Cell) or runner is None:
        raise pytest.UsageError(
            "ponybench_cell is parametrized by the plugin, in a pytest run pointed at the benchmark folder"
        )
    record = runner.run(cell)
    request.node.stash[RECORD_KEY] = record
    # For JUnit XML and CI test tabs: one property per scalar metric, each a JSON value.
    request.node.user_properties.extend(junit_properties(record))
    json_meta = getattr(request.node, "_json_report_extra", None)
    if isinstance(json_meta, dict):
        json_meta.setdefault("metadata", {})["ponybench"] = record
    if record.get("error_kind") == "budget":
        # Stopped by the run's budget mid-session: not the arm's failure nor the instrument's,
        # skipped as the cells the budget never started are (a resume runs it again).
        pytest.skip(str(record.get("error")))
    if not record.get("valid"):
        raise CellInvalid(f"invalid cell {cell.id}: {record.get('error')}")
    return CellOutcome(record)
