"""Spend control: pre-flight before paying, a run-wide budget, infrastructure retries, warm-up."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import make_plugin, records, run_dirs

pytestmark = pytest.mark.needs_claude


def test_budget_stops_an_xdist_run_early_within_one_cell(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project()
    budget = 0.25
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", "offline-reference", "--budget-usd", str(budget), "-rs"
    )
    outcomes = result.parseoutcomes()
    assert outcomes["skipped"] > 0 and outcomes.get("passed", 0) >= 1
    result.stdout.fnmatch_lines(["SKIPPED *budget: $* spent of $0.25*"])
    result.stdout.fnmatch_lines(["spend: $* of a $0.25 budget*"])
    recs = records(run_dirs(root)[0])
    spent = sum(r["cost_usd"] for r in recs)
    most = max(r["cost_usd"] for r in recs)
    assert spent <= budget + most, (spent, budget, most)
    # A cell the gateway stopped mid-session for the budget has a record and is skipped, as
    # the cells never started are.
    stopped = [r for r in recs if r.get("error_kind") == "budget"]
    assert len(recs) - len(stopped) == outcomes.get("passed", 0) + outcomes.get("failed", 0)
    summary = json.loads((run_dirs(root)[0] / "summary.json").read_text())
    assert summary["missing"] == []  # skipped for budget is not lost
    assert result.ret == pytest.ExitCode.OK


def test_overloaded_once_is_retried_and_both_attempts_recorded(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-overloaded-once,offline-flawed", "--cell-retries", "1"
    )
    result.assert_outcomes(passed=1, xfailed=1)  # the flawed cell fails as its agent intends
    run_dir = run_dirs(root)[0]
    recs = records(run_dir)
    once = [r for r in recs if r["model"] == "offline-overloaded-once"]
    assert [(r["attempt"], r["valid"]) for r in once] == [(1, False), (2, True)]
    assert once[0]["api_error_status"] == 529 and once[1]["correct"] is True
    assert (run_dir / "cells" / "sql_lookup-baseline-offline-overloaded-once-r0~1").is_dir()
    flawed = [r for r in recs if r["model"] == "offline-flawed"]
    assert len(flawed) == 1, "a quality failure must never be retried"


@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_an_invalid_cell_is_retried_at_the_end_after_every_other_cell(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], workers: list[str]
) -> None:
    """A fixed design retries its invalid cells once every other cell of the process ran (each
    xdist worker its own), so the retry does not meet the minute that failed it; the first
    attempt is a rerun, the retry's outcome the one pytest and the verdict count."""
    root = bench_project(tasks=["sql_lookup", "merge_intervals"])
    result = pytester.runpytest_subprocess(
        "benchmarks", *workers, "--models", "offline-overloaded-once,offline-reference", "--cell-retries", "1"
    )
    outcomes = result.parseoutcomes()
    assert (outcomes.get("passed"), outcomes.get("rerun"), outcomes.get("error")) == (4, 2, None), outcomes
    assert result.ret == pytest.ExitCode.OK
    recs = records(run_dirs(root)[0])
    once = [r for r in recs if r["model"] == "offline-overloaded-once"]
    assert sorted((r["task"], r["attempt"], r["valid"]) for r in once) == [
        ("merge_intervals", 1, False),
        ("merge_intervals", 2, True),
        ("sql_lookup", 1, False),
        ("sql_lookup", 2, True),
    ]
    # Each retry comes after every first attempt its process ran (one process: after all four).
    order = [(r["model"], r["attempt"]) for r in recs]
    if not workers:
        assert order[-2:] == [("offline-overloaded-once", 2)] * 2, order
    first_retry = min(i for i, r in enumerate(recs) if r["attempt"] == 2)
    assert sum(r["attempt"] == 1 for r in recs[first_retry:]) <= 1, order  # at most the other worker's last


def test_a_sequential_look_waits_for_its_runs_retries(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    """--until-decided retries at once: a look at run r is taken only once r's invalid cells were
    retried, so every retry of run 0 is on record before any cell of run 1."""
    root = bench_project(tasks=["sql_lookup"], arms='baseline = {}\nterse = { prompt = "Be terse." }\n')
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-overloaded-once", "--until-decided", "--max-runs", "2"
    )
    assert "rerun" not in result.parseoutcomes(), result.stdout.str()[-2000:]
    run_dir = run_dirs(root)[0]
    recs = records(run_dir)
    runs = [(r["run"], r["attempt"], r["valid"]) for r in recs]
    first_of_run_1 = next(i for i, r in enumerate(recs) if r["run"] == 1)
    assert sorted(runs[:first_of_run_1]) == [(0, 1, False), (0, 1, False), (0, 2, True), (0, 2, True)], runs
    looks = json.loads((run_dir / "run.json").read_text())["sequential"]["looks"]
    assert looks[0]["runs"] == 1


def test_without_retries_the_overloaded_cell_is_an_error(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-overloaded-once", "--cell-retries", "0"
    )
    result.assert_outcomes(errors=1)
    assert len(records(run_dirs(root)[0])) == 1


def test_preflight_passes_good_arms_and_records_them(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup"], arms='baseline = {}\nterse = { prompt = "Be terse." }\n')
    make_plugin(root)
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "--models",
        "offline-reference",
        "--preflight",
        "--warmup",
        "on",
        "--arm",
        "marked=plugin:plugins/marker-plugin",
    )
    result.assert_outcomes(passed=3)
    run = json.loads((run_dirs(root)[0] / "run.json").read_text())
    checks = {a["arm"]: a for a in run["preflight"]["arms"]}
    assert all(a["ok"] for a in checks.values()), checks
    assert "marker-plugin" in checks["marked"]["evidence"]["plugins"]
    assert any("PONYBENCH-HOOK-MARKER" in o for o in checks["marked"]["evidence"]["hook_outputs"])
    assert checks["terse"]["evidence"]["prompt_in_request"] is True
    assert {(w["model"], w["arm"]) for w in run["warmup"]} == {
        ("offline-reference", a) for a in ("baseline", "terse", "marked")
    }
    # Warm-up is excluded from the statistics but its cost is in the ledger.
    spent = json.loads((run_dirs(root)[0] / "spend.json").read_text())["spent_usd"]
    assert spent > sum(r["cost_usd"] for r in records(run_dirs(root)[0]))


@pytest.mark.parametrize(
    ("manifest", "hook", "message"),
    [
        ("{nope", "echo hi", "ERROR: arm 'silent' (--arm): *plugin.json is not valid JSON*"),
        (None, "true", "  - arm 'silent': its SessionStart hook printed nothing the model could see"),
    ],
)
def test_preflight_stops_a_broken_arm_before_any_cell(
    pytester: pytest.Pytester,
    bench_project: Callable[..., Path],
    manifest: str | None,
    hook: str,
    message: str,
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    plugin = make_plugin(root, "silent", manifest=manifest)
    hooks = {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": hook}]}]}}
    (plugin / "hooks" / "hooks.json").write_text(json.dumps(hooks))
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-reference",
        "--preflight",
        "--arm",
        "silent=plugin:plugins/silent",
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert not list((root / "runs").glob("*/results.jsonl")) if (root / "runs").exists() else True


def test_a_paid_run_with_a_broken_scorer_spends_nothing(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A live model triggers the pre-flight by itself; a broken scorer stops it cold."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "not-a-real-key")  # past the credential check; never used
    root = bench_project(tasks=["sql_lookup", "merge_intervals"])
    task = root / "benchmarks" / "tasks" / "sql_lookup"
    shutil.rmtree(task / "bad")
    shutil.copytree(task / "good", task / "bad")
    result = pytester.runpytest_subprocess("benchmarks", "--models", "claude-sonnet-4-5")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: ponybench pre-flight failed; no cell was run and nothing was spent:",
            "  - selftest: task sql_lookup: the bad reference passes its axis 'safe'*",
        ]
    )
    assert "test_cell" not in result.stdout.str()
