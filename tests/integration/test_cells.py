"""The main job: the offline grid over the shipped suite, through the real claude CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import pytest

from pytest_ponybench.analysis.report import MATRIX_ROWS_IN_TERMINAL
from pytest_ponybench.core.tasks import load_tasks
from tests.support import records, run_dirs

pytestmark = pytest.mark.needs_claude

# The README's main command: every reference cell passes, every flawed cell fails on its task's
# axis, as intended (a strict xfail), so the command exits 0 when the instrument works.
MAIN = "offline-reference,offline-flawed"


# Every shipped task's two cells: its own limit, above pytest-timeout's default, as the suite grows.
@pytest.mark.timeout(1800)
def test_offline_grid_over_every_shipped_task(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project()
    junit = root / "junit.xml"
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", MAIN, "-p", "no:cacheprovider", f"--junitxml={junit}"
    )
    run_dir = run_dirs(root)[0]
    recs = records(run_dir)
    tasks = {t.id: t for t in load_tasks(root / "benchmarks" / "tasks", root / "fixtures")}
    assert len(recs) == 2 * len(tasks), result.stdout.str()[-3000:]
    for rec in recs:
        task = tasks[rec["task"]]
        where = f"{rec['cell_id']}: {rec.get('reason')} {rec.get('error')}"
        assert rec["valid"], where
        # The CLI itself reports these: the server's usage numbers priced by the real client.
        assert rec["input_tokens"] > 0 and rec["output_tokens"] > 0, where
        assert rec["cost_usd"] > 0 and rec["turns"] >= 1, where
        assert rec["cache_read_tokens"] is not None, where
        # The session's CPU reaches the harness through bwrap; a scored cell's checks had some.
        assert rec["claude_cpu_s"] > 0.1, where
        if task.scored and rec["files"] > 0:
            assert rec["scorer_cpu_s"] > 0, where
        if rec["model"] == "offline-reference":
            assert rec["correct"] and rec["safe"], where
            if task.scored:
                assert rec["total_loc"] > 0, where
        elif task.scored:
            assert rec[task.axis] is False, where
    n_open = sum(not t.scored for t in tasks.values())
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()[-3000:]
    result.assert_outcomes(passed=len(tasks) + n_open, xfailed=len(tasks) - n_open)
    out = result.stdout.str()
    # A terminal that answers: the tables, the matrix, one line for the intended failures, no
    # traceback, and all of it within 120 lines.
    assert "ponybench summary" in out and "ALL TASKS (offline-reference)" in out
    # Past a screen's worth of tasks the matrix is one line pointing at -v and the report.
    assert len(tasks) > MATRIX_ROWS_IN_TERMINAL
    assert f"passed/scored per task: {len(tasks)} rows, more than fit a screen" in out
    assert f"{len(tasks) - n_open} cell(s) failed as their offline agent intends" in out
    assert "Traceback" not in out and "AssertionError" not in out and "CellOutcome object" not in out
    assert len(result.outlines) <= 120, "\n".join(result.outlines)
    report = json.loads((run_dir / "report.json").read_text())
    metas = [t["metadata"]["ponybench"] for t in report["tests"] if "metadata" in t]
    assert len(metas) == len(recs)
    # JUnit: one property per metric, each a JSON value a CI test tab can read.
    cases = ElementTree.parse(junit).getroot().iter("testcase")
    props = {p.get("name"): p.get("value") for case in cases for p in case.iter("property")}
    assert json.loads(str(props["ponybench.cost_usd"])) > 0
    assert json.loads(str(props["ponybench.valid"])) is True
    assert "ponybench" not in props  # no dict repr
    # A graded task's graders, one property each.
    assert json.loads(str(props["ponybench.grader.explains_teardown"])) in (True, False)
    assert json.loads(str(props["ponybench.score"])) is not None
    run = json.loads((run_dir / "run.json").read_text())
    assert run["claude_version"].startswith("2.1.") and run["finished"]
    assert set(run["tasks"]) == set(tasks) and "shopcart" in run["fixtures"]
    assert run["harness"]["version"] and run["python"] and run["pytest"]
    assert len(run["grid"]) == len(recs)
    assert run["confinement"]["agent"]["caps"]["CapEff"] == "0000000000000000"


def test_offline_idle_writes_nothing_and_an_open_task_passes(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup", "cart_bogo", "explain_fixture_scopes"])
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", "offline-idle", "-p", "no:cacheprovider", "--no-report"
    )
    result.assert_outcomes(passed=1, xfailed=2)
    for rec in records(run_dirs(root)[0]):
        where = f"{rec['cell_id']}: {rec.get('reason')}"
        if rec["task"] == "explain_fixture_scopes":
            assert rec["correct"] and rec["scored"] is False, where
            continue
        assert rec["correct"] is False and rec["reason"].startswith("nothing written"), where
        assert rec["total_loc"] == 0 and rec["chat_loc"] > 0, where


@pytest.mark.parametrize("workers", ["0", "2"])
def test_same_grid_with_and_without_xdist(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], workers: str
) -> None:
    bench_project(tasks=["sql_lookup", "merge_intervals", "line_count"])
    result = pytester.runpytest_subprocess(
        "benchmarks", "-vv", "-n", workers, "--models", "offline-reference,offline-flawed"
    )
    result.assert_outcomes(passed=3, xfailed=3)
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*3 cell(s) failed as their offline agent intends*"])


def test_a_cell_that_fails_unexpectedly_is_one_line_and_the_long_form_is_there_on_request(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["merge_intervals"])
    check = root / "benchmarks" / "tasks" / "merge_intervals" / "checks" / "test_correct.py"
    long_message = "an assertion message " + "that goes on and on " * 20
    check.write_text(
        check.read_text() + f"\n\ndef test_always_fails():\n    assert False, {long_message!r}\n"
    )
    result = pytester.runpytest_subprocess("benchmarks", "--models", "offline-reference", "--no-report")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    line = next(
        ln for ln in result.outlines if ln.startswith("  merge_intervals baseline offline-reference r0: ")
    )
    assert line.split(": ", 1)[1].startswith("incorrect: test_correct.py::test_always_fails: AssertionError")
    assert len(line) <= 120 and line.endswith("…") and not line.endswith(" …")  # cut between words
    assert "Traceback" not in result.stdout.str() and "def test_cell" not in result.stdout.str()
    detailed = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-reference", "--no-report", "--tb=long", "-rf"
    )
    out = detailed.stdout.str()
    assert "def test_cell(ponybench_cell):" in out and "Incorrect: incorrect: test_correct.py" in out
    assert "CellOutcome(merge_intervals-baseline-offline-reference-r0: failed)" in out
    assert "FAILED benchmarks/test_cells.py::test_cell[merge_intervals-baseline-offline-reference-r0]" in out


def test_cell_ids_order_and_markers(pytester: pytest.Pytester, bench_project: Callable[..., Path]) -> None:
    bench_project(
        tasks=["sql_lookup", "merge_intervals"], arms='baseline = {}\nbrief = { prompt = "Be brief." }\n'
    )
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "--collect-only",
        "-q",
        "--models",
        "offline-reference,offline-idle",
        "--runs",
        "2",
        "--strict-markers",
        "-m",
        "quick",
    )
    by_arm = pytester.runpytest_subprocess(
        "benchmarks",
        "--collect-only",
        "-q",
        "--models",
        "offline-reference,offline-idle",
        "--strict-markers",
        "-m",
        "arm_brief and model_offline_idle",
    )
    picked = [ln for ln in by_arm.stdout.lines if "::test_cell[" in ln]
    assert picked and all("-brief-offline-idle-" in ln for ln in picked), by_arm.stdout.str()
    lines = [ln for ln in result.stdout.lines if "::test_cell[" in ln]
    ids = [ln.split("[", 1)[1].rstrip("]") for ln in lines]
    quick = [t for t in ("merge_intervals", "sql_lookup")]
    assert ids[:4] == [
        f"{quick[0]}-baseline-offline-reference-r0",
        f"{quick[0]}-brief-offline-reference-r0",
        f"{quick[0]}-baseline-offline-idle-r0",
        f"{quick[0]}-brief-offline-idle-r0",
    ], ids
    assert len(ids) == 2 * 2 * 2 * 2
    assert ids[-1] == f"{quick[1]}-brief-offline-idle-r1"
    assert result.ret == pytest.ExitCode.OK and not (pytester.path / "runs").exists()


def test_a_workspace_inside_a_git_repo_is_refused(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent must never see the history of a repository around its workspace."""
    import subprocess

    root = bench_project(tasks=["sql_lookup"])
    repo = root / "scratch-repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    monkeypatch.setenv("TMPDIR", str(repo))
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-reference", "--cell-retries", "0"
    )
    result.assert_outcomes(errors=1)
    rec = records(run_dirs(root)[0])[0]
    assert rec["valid"] is False and "inside a git repository" in rec["error"], rec["error"]
