"""`pytest --selftest-only`: every scorer proven against its references, no claude, no API."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest


def test_selftest_over_the_shipped_suite(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project()
    n_refs = 2 * sum(
        1
        for t in (root / "benchmarks" / "tasks").iterdir()
        if 'kind = "open"' not in (t / "task.toml").read_text()
    )
    started = time.monotonic()
    result = pytester.runpytest_subprocess("--selftest-only", "-n", "2", "-v")
    elapsed = time.monotonic() - started
    assert n_refs >= 24
    result.assert_outcomes(passed=n_refs + 3)
    for name in ("sql_lookup?good?", "sql_lookup?bad?", "instrument?crashed_cell_counts_as_failed?"):
        result.stdout.fnmatch_lines([f"*PASSED selftest::{name}*"])
    assert not (root / "runs").exists(), "the selftest must not create a run dir"
    print(f"selftest: {n_refs} references in {elapsed:.1f}s")


def test_selftest_from_the_benchmark_folder_selects_by_tag(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    bench_project()
    result = pytester.runpytest_subprocess(
        "benchmarks", "--selftest-only", "-m", "quick", "--strict-markers", "-v"
    )
    result.assert_outcomes(passed=8)  # four quick tasks x good/bad; instruments are untagged
    assert "test_cell" not in result.stdout.str()


def test_a_swapped_bad_reference_fails_exactly_that_task(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup", "merge_intervals", "zip_extract"])
    task = root / "benchmarks" / "tasks" / "sql_lookup"
    shutil.rmtree(task / "bad")
    shutil.copytree(task / "good", task / "bad")
    result = pytester.runpytest_subprocess("--selftest-only", "-n", "2", "-vv")
    result.assert_outcomes(passed=5 + 3, failed=1)
    result.stdout.fnmatch_lines(
        ["FAILED selftest::sql_lookup?bad? - task sql_lookup: the bad reference passes its axis 'safe'*"]
    )


def test_a_good_reference_that_fails_names_the_axis(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["merge_intervals"])
    task = root / "benchmarks" / "tasks" / "merge_intervals"
    bad = next((task / "bad").iterdir())
    shutil.copy(bad, task / "good" / bad.name)
    result = pytester.runpytest_subprocess("--selftest-only", "-vv")
    result.assert_outcomes(passed=1 + 3, failed=1)
    result.stdout.fnmatch_lines(
        [
            "FAILED selftest::merge_intervals?good? - task merge_intervals: the good reference "
            "fails on correct: test_correct*"
        ]
    )


def test_a_hanging_check_ends_with_a_timeout_reason(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["merge_intervals"])
    task = root / "benchmarks" / "tasks" / "merge_intervals"
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace("timeout = ", "# timeout = ") + "\ntimeout = 3\n")
    (task / "checks" / "test_correct_hang.py").write_text(
        "def test_hangs():\n    while True:\n        pass\n"
    )
    started = time.monotonic()
    result = pytester.runpytest_subprocess("--selftest-only", "-k", "good", "-vv")
    elapsed = time.monotonic() - started
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "FAILED selftest::merge_intervals?good? - task merge_intervals: the good reference fails on "
            "correct: test_correct_hang.py::test_hangs: checks exceeded their 3s limit*"
        ]
    )
    assert elapsed < 3 + 20


def test_malformed_task_folders_are_all_named_at_collection(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    tasks = root / "benchmarks" / "tasks"
    (tasks / "broken_kind").mkdir()
    (tasks / "broken_kind" / "task.toml").write_text('kind = "surgicle"\n')
    (tasks / "broken_toml").mkdir()
    (tasks / "broken_toml" / "task.toml").write_text("kind = \n")
    for args in (["--selftest-only"], ["benchmarks", "--models", "offline-reference"]):
        result = pytester.runpytest_subprocess(*args)
        assert result.ret == pytest.ExitCode.USAGE_ERROR, args
        err = result.stderr.str()
        assert "broken_kind: task.toml: key 'kind' is 'surgicle'" in err
        assert "broken_toml: task.toml: not valid TOML" in err
        assert "broken_kind: prompt.md: missing" in err
