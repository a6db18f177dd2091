"""Infrastructure faults end as invalid cells (pytest errors) with the right reason, within the
cell timeout, and leave no claude process behind."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import records, run_dirs, tagged_processes

pytestmark = pytest.mark.needs_claude

FAULTS = {
    "offline-error-400": "API error 400",
    "offline-error-401": "API error 401",
    "offline-error-429": "API error 429",
    "offline-error-500": "API error 500",
    "offline-overloaded": "API error 529",
    "offline-overloaded-once": "API error 529",
    "offline-hang": "API error (no status): Request timed out",
    "offline-cut": "API error (no status)",
    "offline-garbage": "API error (no status)",
}
CELL_TIMEOUT = 20


def test_every_fault_model_is_an_invalid_cell(
    pytester: pytest.Pytester,
    bench_project: Callable[..., Path],
    process_tag: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Wide enough that pytest's short summary keeps each error's message beside its long id.
    monkeypatch.setenv("COLUMNS", "200")
    root = bench_project(tasks=["sql_lookup"])
    started = time.monotonic()
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        ",".join(FAULTS),
        "--cell-timeout",
        str(CELL_TIMEOUT),
        "--cell-retries",
        "0",
        "-rE",
    )
    elapsed = time.monotonic() - started
    result.assert_outcomes(errors=len(FAULTS))
    recs = {r["model"]: r for r in records(run_dirs(root)[0])}
    assert set(recs) == set(FAULTS)
    for model, expected in FAULTS.items():
        rec = recs[model]
        assert rec["valid"] is False, model
        assert rec["error"].startswith(expected), f"{model}: {rec['error']}"
        assert rec["error_kind"] == "api", model  # the kind that is retried, not the words
        assert rec["wall_s"] < CELL_TIMEOUT, f"{model} took {rec['wall_s']}s"
        result.stdout.fnmatch_lines(
            [f"ERROR benchmarks/test_cells.py::test_cell?sql_lookup-baseline-{model}-r0?*"]
        )
    result.stdout.fnmatch_lines(["*CellInvalid: invalid cell sql_lookup-baseline-offline-hang-r0:*"])
    # The reason alone: not the fixture's source lines nor a traceback through the harness.
    assert "runner.run(cell)" not in result.stdout.str() and "plugin.py:" not in result.stdout.str()
    # Nine cells two at a time, each bounded by its timeout: far less than nine timeouts.
    assert elapsed < 5 * CELL_TIMEOUT
    assert tagged_processes(process_tag) == []


def test_cell_timeout_kills_the_session(
    pytester: pytest.Pytester,
    bench_project: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    process_tag: str,
) -> None:
    """A hang the CLI would wait out for a minute: the harness kills the process group itself."""
    monkeypatch.setenv("API_TIMEOUT_MS", "60000")
    root = bench_project(tasks=["sql_lookup"])
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-hang", "--cell-timeout", "3", "--cell-retries", "0"
    )
    result.assert_outcomes(errors=1)
    rec = records(run_dirs(root)[0])[0]
    assert rec["timed_out"] is True and rec["valid"] is False
    assert "no reply from the model before the cell timeout" in rec["error"]
    assert rec["wall_s"] < 3 + 5
    assert tagged_processes(process_tag) == []


def test_missing_claude_is_one_clear_error(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    bench_project()
    result = pytester.runpytest_subprocess("benchmarks", "-n", "2", "--claude", "/nonexistent/claude")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: ponybench: the claude CLI was not found*"])
    assert "test_cell" not in result.stdout.str()


def test_process_tag_finds_a_live_descendant(process_tag: str) -> None:
    """The orphan check above can fail: a tagged process is seen while it lives."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert any("time.sleep(30)" in c for c in tagged_processes(process_tag))
    finally:
        proc.kill()
        proc.wait()
    assert tagged_processes(process_tag) == []
