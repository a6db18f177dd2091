"""The price before paying: --dry-run prints the grid, the pre-flight and an estimate with no
credential and nothing spent; a paid run whose estimate is over its budget never starts; an
offline run's estimate matches what the run then reports."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import closed_port, records, run_dirs

pytestmark = pytest.mark.needs_claude

TOTAL = re.compile(r"whole run: \$([0-9,.]+)-\$([0-9,.]+)")


def dollars(text: str) -> tuple[float, float]:
    found = TOTAL.search(text)
    assert found, text[-2000:]
    return float(found[1].replace(",", "")), float(found[2].replace(",", ""))


def no_credentials(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))  # no ~/.claude/.credentials.json either


def test_a_dry_run_prints_the_price_with_no_credential_and_runs_nothing(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = bench_project(tasks=["sql_lookup", "merge_intervals", "cart_bogo"])
    no_credentials(monkeypatch, root / "nohome")
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "sonnet,haiku", "--runs", "3", "--dry-run", "-p", "no:cacheprovider"
    )
    out = result.stdout.str()
    assert result.ret == pytest.ExitCode.OK, out[-3000:] + result.stderr.str()[-2000:]
    assert "grid: 3 tasks x 1 arms x 2 models x 3 runs = 18 cells" in out
    assert "pre-flight before the first cell: the selftest of 3 tasks" in out
    assert "a free token count against the API for sonnet, haiku" in out
    low, high = dollars(out)
    assert 0 < low < high
    sonnet = next(ln for ln in result.outlines if ln.strip().startswith("sonnet "))
    haiku = next(ln for ln in result.outlines if ln.strip().startswith("haiku "))
    # List prices: sonnet is three times haiku per token, so its estimate is too.
    s_low = float(re.findall(r"\$([0-9.]+)-", sonnet)[1])
    h_low = float(re.findall(r"\$([0-9.]+)-", haiku)[1])
    assert s_low == pytest.approx(3 * h_low, rel=0.02)
    assert not [p for p in (root / "runs").iterdir() if p.is_dir()]  # no run dir, no cell


def test_an_offline_estimate_matches_what_the_run_reports(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup", "merge_intervals", "cart_bogo"])
    arm = ("--arm", "terse=prompt:Answer in as few words as you can.")
    dry = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-reference", "--runs", "2", *arm, "--dry-run"
    )
    low, high = dollars(dry.stdout.str())
    assert low == pytest.approx(high)  # offline sessions are deterministic
    run = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", "offline-reference", "--runs", "2", *arm, "--no-report"
    )
    assert run.ret == pytest.ExitCode.OK
    reported = sum(float(r["cost_usd"]) for r in records(run_dirs(root)[-1]))
    # The terse arm's tokens were derived from one measurement on the first task; the rest
    # were measured: within a few percent of what the CLI reported for the 12 cells.
    assert low == pytest.approx(reported, rel=0.05), (low, reported)
    print(f"estimate ${low:.4f}, reported ${reported:.4f} ({100 * (low / reported - 1):+.1f}%)")


def test_a_paid_run_over_its_budget_never_starts(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = bench_project(tasks=["sql_lookup", "merge_intervals"])
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-never-used")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")  # nothing listens: never reached
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "sonnet", "--runs", "50", "--budget-usd", "0.5", "-p", "no:cacheprovider"
    )
    err = result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()[-2000:] + err[-2000:]
    assert "even the low end is over --budget-usd 0.5; nothing was run" in err
    assert not list((root / "runs").glob("*/results.jsonl"))


JUDGED = "graded_explain_yield_teardown"  # an llm grader: the judge is asked on every cell


def test_the_offline_judge_of_a_live_model_is_refused_naming_both(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The offline judge answers from a directive in the judged text: a live agent that writes
    one would pass. Refused before any cell, by flag or by pyproject key, with or without
    judge graders in the selection; the offline models' run is judged by it as before."""
    root = bench_project(tasks=[JUDGED, "sql_lookup"])
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-never-used")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{closed_port()}")
    for models, tasks in (("sonnet", JUDGED), ("offline-reference,haiku", "sql_lookup")):
        result = pytester.runpytest_subprocess(
            "benchmarks", "--models", models, "--tasks", tasks, "--judge-model", "offline-judge", "--dry-run"
        )
        err = result.stderr.str()
        assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()[-2000:] + err[-2000:]
        live = models.split(",")[-1]
        assert "--judge-model offline-judge (or pyproject judge_model)" in err, err
        assert f"include the live model(s) {live}." in err and "Traceback" not in err, err
        assert "grid:" not in result.stdout.str()  # the dry run did not start either
    (root / "pyproject.toml").write_text(
        (root / "pyproject.toml")
        .read_text()
        .replace('out = "runs"', 'out = "runs"\njudge_model = "offline-judge"')
    )
    result = pytester.runpytest_subprocess("benchmarks", "--models", "opus", "--tasks", JUDGED, "--dry-run")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "include the live model(s) opus." in result.stderr.str()
    assert not list((root / "runs").glob("*/run.json"))  # no run dir: nothing ran

    # Offline models only: judged by the offline judge, one real cell.
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-reference", "--tasks", JUDGED, "--judge-model", "offline-judge"
    )
    result.assert_outcomes(passed=1)
    (rec,) = records(run_dirs(root)[-1])
    judged = [g for g in rec["graders"] if g["type"] == "llm"]
    assert judged and all(g["passed"] is True for g in judged), rec["graders"]
