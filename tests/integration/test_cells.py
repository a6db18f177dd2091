"""The main job: the offline grid over the shipped suite, through the real claude CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import records, run_dirs

pytestmark = pytest.mark.needs_claude

OFFLINE = "offline-reference,offline-flawed,offline-idle"


def test_offline_grid_over_every_shipped_task(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project()
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", OFFLINE, "-p", "no:cacheprovider"
    )
    run_dir = run_dirs(root)[0]
    recs = records(run_dir)
    tasks = {p.name: p for p in (root / "benchmarks" / "tasks").iterdir()}
    assert len(recs) == 3 * len(tasks), result.stdout.str()[-3000:]
    axes = {}
    for name, path in tasks.items():
        text = (path / "task.toml").read_text()
        axes[name] = (
            None if 'kind = "open"' in text else ("correct" if 'axis = "correct"' in text else "safe")
        )
    for rec in recs:
        where = f"{rec['cell_id']}: {rec.get('reason')} {rec.get('error')}"
        assert rec["valid"], where
        # The CLI itself reports these: the server's usage numbers priced by the real client.
        assert rec["input_tokens"] > 0 and rec["output_tokens"] > 0, where
        assert rec["cost_usd"] > 0 and rec["turns"] >= 1, where
        assert rec["cache_read_tokens"] is not None, where
        # The session's CPU reaches the harness through bwrap; a scored cell's checks had some.
        assert rec["claude_cpu_s"] > 0.1, where
        axis = axes[rec["task"]]
        if axis is not None and rec["files"] > 0:
            assert rec["scorer_cpu_s"] > 0, where
        if rec["model"] == "offline-reference":
            assert rec["correct"] and rec["safe"], where
            if axis is not None:
                assert rec["total_loc"] > 0, where
        elif axis is None:
            continue  # an open task has no reference to get wrong
        elif rec["model"] == "offline-flawed":
            assert rec[axis] is False, where
        else:
            assert rec["correct"] is False and rec["reason"].startswith("nothing written"), where
            assert rec["total_loc"] == 0 and rec["chat_loc"] > 0, where
    n_open = sum(a is None for a in axes.values())
    n_ref = len(tasks)
    result.assert_outcomes(passed=n_ref + 2 * n_open, failed=2 * (n_ref - n_open))
    out = result.stdout.str()
    assert "ponybench summary" in out and "ALL TASKS (offline-reference)" in out
    # The failure message says the axis and the check.
    assert "AssertionError: unsafe: " in out and "AssertionError: incorrect: " in out
    assert "AssertionError: nothing written: the agent delivered no code file" in out
    assert "unsafe: nothing written" not in out
    report = json.loads((run_dir / "report.json").read_text())
    metas = [t["metadata"]["ponybench"] for t in report["tests"] if "metadata" in t]
    assert len(metas) == len(recs)
    run = json.loads((run_dir / "run.json").read_text())
    assert run["claude_version"].startswith("2.1.") and run["finished"]
    assert set(run["tasks"]) == set(tasks) and "shopcart" in run["fixtures"]
    assert run["harness"]["version"] and run["python"] and run["pytest"]
    assert len(run["grid"]) == len(recs)


@pytest.mark.parametrize("workers", ["0", "2"])
def test_same_grid_with_and_without_xdist(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], workers: str
) -> None:
    bench_project(tasks=["sql_lookup", "merge_intervals", "line_count"])
    result = pytester.runpytest_subprocess(
        "benchmarks", "-vv", "-n", workers, "--models", "offline-reference,offline-flawed"
    )
    result.assert_outcomes(passed=3, failed=3)
    # One call each: under xdist the summary lines come in completion order.
    result.stdout.fnmatch_lines(
        ["*test_cell?sql_lookup-baseline-offline-flawed-r0?* - AssertionError: unsafe: *"]
    )
    result.stdout.fnmatch_lines(
        ["*test_cell?merge_intervals-baseline-offline-flawed-r0?* - AssertionError: incorrect: *"]
    )


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
