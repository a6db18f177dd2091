"""Infrastructure weather across workers, with the real CLI: an API that answers 529 for a while
makes every worker back off together, then the cells pass; an unreachable API stops the run
after the breaker's count with the resume command; the pre-flight says, without spending, that
a live model's API cannot be reached."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_ponybench.store.weather import WEATHER
from tests.support import records, run_dirs

pytestmark = pytest.mark.needs_claude


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_workers_back_off_together_while_the_api_is_overloaded(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup", "merge_intervals", "cart_bogo", "line_count"])
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", "offline-overloaded-for-4s", "--cell-retries", "4"
    )
    result.assert_outcomes(passed=4)
    run_dir = run_dirs(root)[-1]
    state = json.loads((run_dir / WEATHER).read_text())
    assert state["stopped"] is None
    assert state["backoffs"] and {b["kind"] for b in state["backoffs"]} == {"overloaded"}
    # Both workers waited out a shared backoff, not only the one that met the 529.
    assert len({w["pid"] for w in state["waits"]}) == 2, state["waits"]
    recs = records(run_dir)
    assert any(r.get("api_error_status") == 529 for r in recs)
    assert sorted(r["cell_id"] for r in recs if r.get("valid")) == sorted(
        f"{t}-baseline-offline-overloaded-for-4s-r0"
        for t in ("sql_lookup", "merge_intervals", "cart_bogo", "line_count")
    )


def test_an_unreachable_api_stops_the_run_after_the_breakers_count(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{closed_port()}")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-key")
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "--models",
        "sonnet",
        "--runs",
        "6",
        "--cell-retries",
        "0",
        "--stop-after-invalid",
        "3",
        "--skip-preflight",
        "--warmup",
        "off",
    )
    out = result.stdout.str()
    run_dir = run_dirs(root)[-1]
    recs = records(run_dir)
    assert len(recs) == 3 and not any(r.get("valid") for r in recs), recs
    assert "3 consecutive invalid cells of one kind (unreachable)" in out
    assert f"--resume {run_dir}" in out
    assert result.ret != 0
    summary = json.loads((run_dir / "summary.json").read_text())
    assert len(summary["missing"]) == 3  # the cells the breaker kept from starting: resume runs them


def test_the_preflight_names_an_unreachable_api_before_any_cell(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    port = closed_port()
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-key")
    result = pytester.runpytest_subprocess("benchmarks", "--models", "sonnet")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert f"model sonnet: API unreachable at http://127.0.0.1:{port}" in err, err
    assert not (root / "runs").exists() or not any(
        (d / "results.jsonl").exists() for d in (root / "runs").iterdir()
    )
