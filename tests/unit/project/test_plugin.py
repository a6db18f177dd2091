"""Which objects a pytest run registers: nothing at all in a project that is not a benchmark,
one role object per concern in one that is; and the plugin lives beside others (pytest-retry)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import one_task_project

# Printed by a conftest at the end of the session: the ponybench plugins registered, and whether
# the heavy modules were imported at all.
REPORTER = """
import sys

def pytest_unconfigure(config):
    names = sorted(n for n, _ in config.pluginmanager.list_name_plugin() if n and n.startswith("ponybench-"))
    heavy = sorted(m for m in ("pytest_ponybench.roles.planner", "pytest_ponybench.plan.plan",
                    "pytest_ponybench.session.run", "pytest_ponybench.offline.server",
                    "pytest_ponybench.core.graders", "pytest_ponybench.core.tasks",
                    "pytest_ponybench.core.shards", "yaml")
                   if m in sys.modules)
    print("\\nROLES", ",".join(names) or "-", "HEAVY", ",".join(heavy) or "-")
"""


def roles(result: pytest.RunResult) -> tuple[str, str]:
    line = next(x for x in result.stdout.lines if x.startswith("ROLES "))
    _, names, _, heavy = line.split()
    return names, heavy


@pytest.mark.parametrize("pyproject", [None, '[project]\nname = "other"\n'])
def test_an_unrelated_project_gets_nothing(pytester: pytest.Pytester, pyproject: str | None) -> None:
    pytester.makepyfile(test_x="def test_x():\n    assert True\n")
    pytester.makeconftest(REPORTER)
    if pyproject is not None:
        pytester.makefile(".toml", pyproject=pyproject)
    result = pytester.runpytest_subprocess("-s")
    result.assert_outcomes(passed=1)
    assert roles(result) == ("-", "-")
    assert not (pytester.path / "runs").exists()


def _bench(pytester: pytest.Pytester) -> Path:
    pytester.makeconftest(REPORTER)
    return one_task_project(pytester.path, claude_line="echo '2.1.0 (Claude Code)'")


def test_the_selftest_registers_its_collection_and_summary(pytester: pytest.Pytester) -> None:
    _bench(pytester)
    result = pytester.runpytest_subprocess("--selftest-only", "-s", "-k", "nothing-matches")
    assert roles(result)[0] == "ponybench-selftest,ponybench-selftest-summary"


def test_collect_only_registers_collection_and_makes_no_run_dir(pytester: pytest.Pytester) -> None:
    root = _bench(pytester)
    result = pytester.runpytest_subprocess("benchmarks", "--collect-only", "-q", "-s", "--claude", "./claude")
    assert roles(result)[0] == "ponybench-collection"
    result.stdout.fnmatch_lines(
        ["benchmarks/test_cells.py::test_cell[merge_intervals-baseline-offline-reference-r0]"]
    )
    assert "checks/test_correct.py" not in result.stdout.str()
    assert not (root / "runs").exists()


def test_a_run_registers_one_object_per_role(pytester: pytest.Pytester) -> None:
    root = _bench(pytester)
    result = pytester.runpytest_subprocess(
        "benchmarks", "-s", "-p", "no:xdist", "--claude", "./claude", "-k", "x"
    )
    assert roles(result)[0] == "ponybench-collection,ponybench-controller,ponybench-runner,ponybench-terminal"
    assert len([p for p in (root / "runs").iterdir() if p.is_dir()]) == 1


# Written by each process of an xdist run: its ponybench plugins and which of the controller's
# modules it imported.
PER_PROCESS = """
import json, os, sys

def pytest_unconfigure(config):
    who = getattr(config, "workerinput", {}).get("workerid", "controller")
    names = sorted(n for n, _ in config.pluginmanager.list_name_plugin() if n and n.startswith("ponybench-"))
    mine = sorted(m for m in ("pytest_ponybench.roles.controller", "pytest_ponybench.roles.terminal",
                              "pytest_ponybench.htmlreport.reportjob", "pytest_ponybench.plan.preflight")
                  if m in sys.modules)
    with open(os.path.join(str(config.rootpath), "roles-" + who + ".json"), "w") as fh:
        json.dump({"roles": names, "controller_modules": mine}, fh)
"""


def test_an_xdist_worker_runs_cells_without_the_controllers_modules(pytester: pytest.Pytester) -> None:
    # A worker gets the run dir and the agents' versions from workerinput (roles/handoff.py):
    # the controller's report, verdicts and pre-flight are never imported there.
    root = one_task_project(pytester.path, claude_line="echo '2.1.0 (Claude Code)'")
    pytester.makeconftest(PER_PROCESS)
    result = pytester.runpytest_subprocess("benchmarks", "-n", "1", "--claude", "./claude", "-k", "x")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED, result.stdout.str()
    worker = json.loads((root / "roles-gw0.json").read_text())
    controller = json.loads((root / "roles-controller.json").read_text())
    assert worker == {"roles": ["ponybench-collection", "ponybench-runner"], "controller_modules": []}
    assert "ponybench-controller" in controller["roles"]
    assert "pytest_ponybench.roles.controller" in controller["controller_modules"]
