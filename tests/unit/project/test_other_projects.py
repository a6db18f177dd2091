"""Installed beside other projects: ponybench registers its options under its own prefix and
takes a short name (`--models`) only where no one else registered it, so a project whose
conftest or plugins define any of them runs untouched, and pytest-retry, pytest-randomly and
hypothesis load beside it. Through pytester, no claude."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_ponybench.plan import options as cfg
from tests.support import REQUIRE_CLAUDE_ENV, one_task_project

SHORT = [opt for opt in cfg.HELP if cfg.long_name(opt) != opt]
PLUGINS: tuple[str, ...] = ()
NEIGHBOURS = ("retry-", "randomly-", "hypothesis-")
# The folder the `neighbours` extra was installed into (`pip install --target`; .ci/run sets
# it): on the path of the projects these tests start only, so they load by their entry points
# there and nowhere else.
NEIGHBOURS_ENV = "PONYBENCH_NEIGHBOURS"


@pytest.fixture(autouse=True)
def beside_the_neighbours(monkeypatch: pytest.MonkeyPatch) -> None:
    """The project's pytest runs on its own, with the neighbour plugins on its path (an xdist
    worker's variables would make pytest-retry, which reads them, act as a worker's)."""
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    folder = os.environ.get(NEIGHBOURS_ENV)
    if not folder:
        if os.environ.get(REQUIRE_CLAUDE_ENV) == "1":
            pytest.fail(f"{NEIGHBOURS_ENV} is not set: CI installs the neighbours extra there")
        pytest.skip(f"set {NEIGHBOURS_ENV} to a folder holding the neighbours extra (pip install --target)")
    monkeypatch.setenv("PYTHONPATH", folder + os.pathsep + os.environ.get("PYTHONPATH", ""))


def conftest_owning(names: list[str]) -> str:
    lines = ["def pytest_addoption(parser):"]
    for name in names:
        lines.append(f"    parser.addoption({name!r}, action='store', default='theirs-default')")
    return "\n".join(lines) + "\n"


def test_every_short_name_is_one_ponybench_gives_up() -> None:
    # The names the issue lists, at least: each has a long form of ours.
    for name in ("--models", "--runs", "--tasks", "--arm", "--arms", "--shard", "--resume", "--rescore"):
        assert name in SHORT and cfg.long_name(name).startswith("--ponybench-")


def test_a_conftest_that_defines_every_name_runs_its_own_tests(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(conftest_owning(SHORT))
    checks = "\n".join(
        f"    assert request.config.getoption({n.lstrip('-').replace('-', '_')!r}) == 'given-{i}'"
        for i, n in enumerate(SHORT)
    )
    pytester.makepyfile(test_theirs=f"def test_their_options_are_theirs(request):\n{checks}\n")
    args = [a for i, n in enumerate(SHORT) for a in (n, f"given-{i}")]
    # A subprocess: pytest-retry keeps module-level state that an in-process run would share.
    result = pytester.runpytest_subprocess(*args, *PLUGINS)
    result.assert_outcomes(passed=1)
    header = next(line for line in result.outlines if line.startswith("plugins:"))
    assert all(n in header for n in NEIGHBOURS), header


def test_a_project_with_common_plugins_and_no_benchmark_is_untouched(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_plain="""
        from hypothesis import given, strategies as st

        @given(st.integers())
        def test_property(x):
            assert x == x
        """
    )
    result = pytester.runpytest_subprocess(*PLUGINS, "--retries", "1", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_pytest_retry_owns_retries_and_ours_is_cell_retries(pytester: pytest.Pytester) -> None:
    # Both load by their entry points (pytest-retry from the neighbours folder, installed by
    # .ci/run without network at test time); each option is its owner's.
    pytester.makepyfile(test_x="def test_x():\n    assert True\n")
    helptext = pytester.runpytest_subprocess("--help").stdout.str()
    assert "--retries" in helptext and "--cell-retries" in helptext


def test_a_benchmark_project_whose_conftest_owns_models_uses_the_long_name(pytester: pytest.Pytester) -> None:
    root = one_task_project(pytester.path, "merge_intervals")
    (root / "conftest.py").write_text(conftest_owning(["--models", "--runs"]))
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "--claude",
        "./claude",
        "--ponybench-models",
        "offline-flawed",
        "--runs",
        "theirs",
        "--collect-only",
        "-q",
        *PLUGINS,
    )
    assert result.ret == pytest.ExitCode.OK, result.stdout.str() + result.stderr.str()
    result.stdout.fnmatch_lines(["*test_cell*merge_intervals-baseline-offline-flawed-r0*"])


def test_short_names_and_ini_options_reach_the_plan(pytester: pytest.Pytester) -> None:
    """Where nobody else owns them the short names work; settings also come from pytest.ini (or
    -o), below the command line and above [tool.ponybench]."""
    root = one_task_project(pytester.path, "merge_intervals")
    (root / "pytest.ini").write_text("[pytest]\nponybench_runs = 2\nponybench_models = offline-flawed\n")
    result = pytester.runpytest_subprocess(
        "benchmarks", "--claude", "./claude", "--collect-only", "-q", *PLUGINS
    )
    result.stdout.fnmatch_lines(["*merge_intervals-baseline-offline-flawed-r1*"])
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "--claude",
        "./claude",
        "--collect-only",
        "-q",
        "--runs",
        "1",
        "-o",
        "ponybench_models=offline-idle",
    )
    out = result.stdout.str()
    assert "offline-idle-r0" in out and "-r1]" not in out, out


def test_help_lists_the_long_names_and_the_ini_options(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("--help")
    out = " ".join(result.stdout.str().split())  # help text wraps
    assert "--ponybench-models" in out and "also --models where no other plugin uses it" in out
    assert "ponybench_runs" in out and "ponybench_max_workspace_mb" in out


def test_markers_and_fixtures_leave_no_run_dir(pytester: pytest.Pytester) -> None:
    root = one_task_project(pytester.path, "merge_intervals")
    for flag in ("--markers", "--fixtures"):
        result = pytester.runpytest_subprocess("benchmarks", "--claude", "./claude", flag)
        assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    assert not (root / "runs").exists() or not any(Path(root / "runs").iterdir())


def test_the_grid_keeps_its_order_beside_pytest_randomly(pytester: pytest.Pytester) -> None:
    one_task_project(pytester.path, "merge_intervals")
    (pytester.path / "pyproject.toml").write_text(
        '[tool.ponybench]\n[tool.ponybench.arms]\nbaseline = {}\nbrief = { prompt = "Be brief." }\n'
    )
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "--claude",
        "./claude",
        "--collect-only",
        "--runs",
        "2",
        "--models",
        "offline-reference,offline-idle",
        "-p",
        "no:cacheprovider",
    )
    assert result.ret == pytest.ExitCode.OK and "Using --randomly-seed" in result.stdout.str()
    ids = [ln.split("[", 1)[1].split("]")[0] for ln in result.outlines if "<Function test_cell[" in ln]
    assert ids == [
        f"merge_intervals-{arm}-{model}-r{run}"
        for run in range(2)
        for model in ("offline-reference", "offline-idle")
        for arm in ("baseline", "brief")
    ], ids
