"""`pytest --selftest-only`: every scorer proven against its references, no claude, no API."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_ponybench.core.tasks import load_tasks
from pytest_ponybench.cpe.importer import import_suite
from tests.support import REPO


def test_selftest_from_the_benchmark_folder_selects_by_tag(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project()
    quick = [t for t in load_tasks(root / "benchmarks" / "tasks", root / "fixtures") if "quick" in t.tags]
    result = pytester.runpytest_subprocess(
        "benchmarks", "--selftest-only", "-m", "quick", "--strict-markers", "-v"
    )
    # every reference and contract table of every quick task; instruments are untagged
    tables = sum((t.path / "contract.md").is_file() for t in quick)
    result.assert_outcomes(passed=sum(len(t.references) for t in quick) + tables)
    assert "test_cell" not in result.stdout.str()


def test_a_swapped_bad_reference_fails_exactly_that_task(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup", "merge_intervals", "zip_extract"])
    task = root / "benchmarks" / "tasks" / "sql_lookup"
    shutil.rmtree(task / "bad")
    shutil.copytree(task / "good", task / "bad")
    result = pytester.runpytest_subprocess("--selftest-only", "-n", "2", "-vv")
    tasks = load_tasks(root / "benchmarks" / "tasks", root / "fixtures")
    # every reference but the swapped one, each task's contract table and the 3 instruments
    result.assert_outcomes(passed=sum(len(t.references) for t in tasks) - 1 + len(tasks) + 3, failed=1)
    result.stdout.fnmatch_lines(
        ["FAILED selftest::sql_lookup?bad? - task sql_lookup: the bad reference passes its axis 'safe'*"]
    )
    result.stdout.fnmatch_lines(["sql_lookup: * refs *; */* as declared; mutants * -- 1 NOT AS DECLARED"])


def test_a_good_reference_that_fails_names_the_axis(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["merge_intervals"])
    task = root / "benchmarks" / "tasks" / "merge_intervals"
    bad = next((task / "bad").iterdir())
    shutil.copy(bad, task / "good" / bad.name)
    shutil.rmtree(task / "refs")  # and the task falls below the minimums
    result = pytester.runpytest_subprocess("--selftest-only", "-vv")
    result.assert_outcomes(passed=1 + 1 + 3, failed=1)  # the bad reference, the contract table, 3 instruments
    result.stdout.fnmatch_lines(
        [
            "merge_intervals: 2 refs (1 correct, 1 safe+incorrect); 1/2 as declared; mutants * killed "
            "(* equivalent); contract * rows (* checked, * not checked) -- 1 NOT AS DECLARED -- "
            "BELOW MINIMUM: 1 correct (needs 2)"
        ]
    )
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
    result = pytester.runpytest_subprocess("--selftest-only", "-k", "good and not other", "-vv")
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


def test_a_correctness_assertion_in_a_safety_check_is_caught_by_a_declared_reference(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    """Axis purity is proven, not trusted: a test_safe file that also judges behaviour scores
    the task's safe-but-incorrect reference unsafe, and the selftest names both."""
    root = bench_project(tasks=["sql_lookup"])
    checks = root / "benchmarks" / "tasks" / "sql_lookup" / "checks"
    with (checks / "test_safe.py").open("a") as fh:
        fh.write(
            "\n\ndef test_quote_in_name_found(conn):\n"
            "    conn.execute(\"INSERT INTO users VALUES (3, 'o''brien', 'ob@example.com')\")\n"
            '    user = load().find_user(conn, "o\'brien")\n'
            "    assert user is not None, 'a name with a quote should be found'\n"
        )
    result = pytester.runpytest_subprocess("--selftest-only", "-vv", "-k", "sql_lookup")
    # Both safe-but-incorrect references that do not find o'brien say so: the written one, and
    # the blind one that refuses any name with a character besides letters, digits and _.
    for ref in ("blind_word_whitelist", "strip_quotes"):
        result.stdout.fnmatch_lines(
            [
                f"FAILED selftest::sql_lookup?{ref}? - task sql_lookup: reference {ref} "
                f"(refs/{ref}/, expect 'incorrect, safe') fails on safe: "
                "test_safe.py::test_quote_in_name_found: AssertionError: a name with a quote should be found*"
            ]
        )
    result.stdout.fnmatch_lines(["sql_lookup: * refs *; */* as declared; mutants * -- 2 NOT AS DECLARED"])
    assert "FAILED selftest::sql_lookup?good?" not in result.stdout.str()


def test_graders_no_reference_proves_are_unproven_on_the_summary_line(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    """An imported suite's graders have no references yet: the selftest says so per task and on
    its total line, instead of a bare "0/0 outcomes as declared"."""
    root = bench_project(tasks=["graded_explain_yield_teardown"])
    shutil.copytree(REPO / "examples" / "careful-plugin", root / "careful")
    shutil.copytree(REPO / "tests" / "unit" / "data" / "cpe" / "careful-evals", root / "careful" / "evals")
    import_suite(root / "careful" / "evals", root / "benchmarks" / "tasks", cwd=root)
    result = pytester.runpytest_subprocess("--selftest-only", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(
        [
            "graded_explain_yield_teardown: *; 4 graders, 24/24 outcomes as declared",
            "greet: 2 refs (2 graded); 2/2 as declared; *; 3 graders, 0/0 outcomes as declared, "
            "3 unproven -- UNPROVEN: says_done, review_skill, wrote_greet (no reference declares each "
            "passing and failing)",
            "4 tasks, * references (*); */* as declared; 6 grader(s) unproven; 3 task(s) flagged",
        ]
    )
    out = result.stdout.str()
    assert "BELOW MINIMUM: grader" not in out  # said once, as unproven
    proven = next(line for line in out.splitlines() if line.startswith("graded_explain_yield_teardown:"))
    assert "unproven" not in proven.lower()
