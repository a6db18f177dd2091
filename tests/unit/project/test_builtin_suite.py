"""The built-in suite from any folder: `pytest --pyargs pytest_ponybench.suite` takes its tasks and
fixtures from the package (here a checkout, where they are the repository's own folders), every
other setting from the project; collection only, so no claude runs. The wheel that carries it is
built and run in tests/integration/test_wheel.py."""

from __future__ import annotations

import re

import pytest

from pytest_ponybench._util.paths import PACKAGE_ROOT, SUITE, SUITE_FIXTURES, SUITE_TASKS
from pytest_ponybench.core.tasks import load_task, task_folders
from pytest_ponybench.roles.collection import TIMEOUT_MARGIN_S
from tests.support import REPO

SUITE_ARGS = ("--pyargs", "pytest_ponybench.suite")


def cell_ids(result: pytest.RunResult) -> list[str]:
    return re.findall(r"test_cell\[([^\]]+)\]", result.stdout.str())


def test_in_a_checkout_the_suite_is_the_repository_s_own_folders() -> None:
    assert SUITE == PACKAGE_ROOT / "suite" and (SUITE / "test_cells.py").is_file()
    assert SUITE_TASKS == REPO / "benchmarks" / "tasks"
    assert SUITE_FIXTURES == REPO / "fixtures"


def test_an_empty_folder_collects_the_built_in_suite(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(*SUITE_ARGS, "--collect-only", "-q", "--models", "offline-reference")
    assert result.ret == 0, result.stdout.str()
    ids = cell_ids(result)
    assert sorted(i.split("-baseline-")[0] for i in ids) == sorted(p.name for p in task_folders(SUITE_TASKS))
    assert all(i.endswith("-baseline-offline-reference-r0") for i in ids)
    # The package's cell module, and not one of the suite's own check files.
    assert all(line.startswith("test_cells.py::test_cell[") for line in result.stdout.lines if "::" in line)
    assert "checks/test_" not in result.stdout.str()
    assert not (pytester.path / "runs").exists()


def test_the_project_s_settings_apply_but_its_tasks_folder_does_not(pytester: pytest.Pytester) -> None:
    pytester.makepyprojecttoml(
        '[tool.ponybench]\ntasks = "mine/tasks"\nruns = 2\n'
        '[tool.ponybench.arms]\nterse = { prompt = "Be brief." }\n'
    )
    result = pytester.runpytest(*SUITE_ARGS, "--collect-only", "-q", "--tasks", "sql_lookup")
    assert result.ret == 0, result.stdout.str()
    assert sorted(cell_ids(result)) == [
        f"sql_lookup-{arm}-offline-reference-r{run}" for arm in ("baseline", "terse") for run in (0, 1)
    ]


def test_the_selftest_of_the_built_in_suite_selects_by_task(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(
        *SUITE_ARGS, "--selftest-only", "--collect-only", "-q", "--tasks", "luhn_check"
    )
    assert result.ret == 0, result.stdout.str()
    refs = re.findall(r"selftest::(luhn_check\[\w+\])", result.stdout.str())
    assert "luhn_check[good]" in refs and "luhn_check[bad]" in refs
    assert not re.findall(r"selftest::(?!luhn_check|instrument)", result.stdout.str())


def test_the_suite_s_folder_by_path_is_the_suite_too(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(str(SUITE), "--collect-only", "-q", "--tasks", "sql_lookup")
    assert result.ret == 0, result.stdout.str()
    assert cell_ids(result) == ["sql_lookup-baseline-offline-reference-r0"]


def test_the_suite_runs_alone(pytester: pytest.Pytester) -> None:
    pytester.mkdir("tests")
    result = pytester.runpytest(*SUITE_ARGS, "tests", "--collect-only", "--tasks", "sql_lookup")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*points at the built-in suite (pytest_ponybench.suite) and at other paths*"]
    )


def test_a_tasks_folder_beside_the_suite_is_refused(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(*SUITE_ARGS, "--ponybench-tasks", "mine", "--collect-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--ponybench-tasks names a tasks folder, but the command line points at the built-in suite*"]
    )


def test_a_project_that_does_not_point_at_the_suite_is_untouched(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_theirs="def test_theirs():\n    assert True\n")
    pytester.syspathinsert()
    result = pytester.runpytest("--pyargs", "test_theirs", "-q")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["1 passed*"])
    assert "ponybench:" not in result.stdout.str() and not (pytester.path / "runs").exists()


def test_each_cell_carries_its_markers_and_a_time_limit_past_the_harness_s_own(
    pytester: pytest.Pytester,
) -> None:
    """The marks are built once per (task, arm, model) and shared by its runs: every run still
    carries its arm and model markers, the strict xfail of a model that must fail, and a
    pytest-timeout limit beyond the cell's own limit and its checks'."""
    pytester.makeconftest(
        "def pytest_collection_finish(session):\n"
        "    for item in session.items:\n"
        "        limit = item.get_closest_marker('timeout')\n"
        "        xfail = item.get_closest_marker('xfail')\n"
        "        names = sorted(m.name for m in item.iter_markers() if m.name[:4] in ('arm_', 'mode'))\n"
        "        print('MARKS', item.callspec.id, limit.args[0], bool(xfail and xfail.kwargs['strict']),"
        " ','.join(names))\n"
    )
    result = pytester.runpytest(
        *SUITE_ARGS, "--collect-only", "-q", "-s", "--tasks", "sql_lookup", "--runs", "2",
        "--models", "offline-reference,offline-flawed", "--cell-timeout", "100",
    )  # fmt: skip
    assert result.ret == 0, result.stdout.str()
    marks = sorted(re.findall(r"^MARKS (\S+) (\S+) (\S+) (\S+)$", result.stdout.str(), re.M))
    limit = str(float(100 + load_task(SUITE_TASKS / "sql_lookup").timeout + TIMEOUT_MARGIN_S))
    assert marks == [
        (f"sql_lookup-baseline-{model}-r{run}", limit, str(flawed),
         f"arm_baseline,model_{model.replace('-', '_')}")
        for model, flawed in (("offline-flawed", True), ("offline-reference", False))
        for run in (0, 1)
    ]  # fmt: skip
