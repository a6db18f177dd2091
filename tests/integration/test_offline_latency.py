"""Sessions that take time, offline: `<model>@<N>s` and the server's latency hold a session for
N seconds without blocking other cells; `offline-overloaded-for-<N>s` answers 529 for N seconds,
then plays the reference. The real CLI against the real server."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pytest_ponybench.agents import claude_stream
from pytest_ponybench.agents.process import run_process
from pytest_ponybench.core.arms import BASELINE
from pytest_ponybench.core.transcript import Transcript
from pytest_ponybench.offline.agents import is_served, split_hold
from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer
from tests.support import CLAUDE, claude_command, claude_env, records, run_dirs

pytestmark = pytest.mark.needs_claude

GOOD = {"greet.py": b"def greet(name):\n    return f'Hello, {name}!'\n"}


def session(server: OfflineServer, base: Path, cell_id: str, model: str) -> tuple[Transcript, float]:
    """One cell's claude session as the harness starts it; (stream, wall seconds)."""
    assert CLAUDE is not None
    ws, home = base / cell_id / "ws", base / cell_id / "home"
    ws.mkdir(parents=True)
    server.register(cell_id, CellScript(ws.resolve(), GOOD, {}, base / cell_id / "requests.jsonl"))
    cmd = claude_command("Write greet.py.", model, BASELINE, 10, binary=CLAUDE)
    env = claude_env(home, base_url=server.cell_url(cell_id), offline=True, api_timeout_ms=60_000)
    start = time.monotonic()
    run_process(
        cmd, cwd=ws, env=env, stdout=base / cell_id / "out.jsonl", stderr=base / cell_id / "err", timeout_s=90
    )
    took = time.monotonic() - start
    return claude_stream.parse(base / cell_id / "out.jsonl"), took


def test_model_names() -> None:
    assert split_hold("offline-reference@20s") == ("offline-reference", 20.0)
    assert split_hold("offline-flawed@1.5s") == ("offline-flawed", 1.5)
    assert split_hold("sonnet@20s") == ("sonnet@20s", None)
    assert is_served("offline-reference@20s") and is_served("offline-overloaded-for-30s")
    assert not is_served("offline-reference@soon") and not is_served("offline-nosuch@2s")


def test_a_held_session_lasts_its_hold_and_does_not_hold_others(tmp_path: Path) -> None:
    hold = 6.0
    with OfflineServer() as server, ThreadPoolExecutor(4) as pool:
        start = time.monotonic()
        runs = list(
            pool.map(
                lambda i: session(server, tmp_path, f"held{i}", f"offline-reference@{hold:g}s"), range(4)
            )
        )
        together = time.monotonic() - start
    for stream, took in runs:
        assert stream.result is not None and not stream.result.get("is_error"), stream.result
        assert hold <= took < hold + 10, took
    for i in range(4):
        assert (tmp_path / f"held{i}" / "ws" / "greet.py").read_bytes() == GOOD["greet.py"]
    # Four held sessions at once take about one hold, not four: the server holds them apart.
    assert together < 2 * hold, together


def test_the_servers_latency_holds_every_model(tmp_path: Path) -> None:
    with OfflineServer(latency_s=4.0) as server:
        stream, took = session(server, tmp_path, "slow", "offline-reference")
    assert stream.result is not None and not stream.result.get("is_error")
    assert took >= 4.0


def test_an_overload_that_lasts_a_while_then_clears(tmp_path: Path) -> None:
    with OfflineServer() as server:
        first, _ = session(server, tmp_path, "storm1", "offline-overloaded-for-4s")
        assert first.result is not None and first.result.get("api_error_status") == 529
        time.sleep(4.2)
        after, _ = session(server, tmp_path, "storm2", "offline-overloaded-for-4s")
    assert after.result is not None and not after.result.get("is_error"), after.result
    assert (tmp_path / "storm2" / "ws" / "greet.py").read_bytes() == GOOD["greet.py"]


def test_the_offline_latency_option_holds_every_cell(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-reference", "--offline-latency", "4"
    )
    result.assert_outcomes(passed=1)
    (rec,) = records(run_dirs(root)[-1])
    assert rec["wall_s"] >= 4.0
    bad = pytester.runpytest_subprocess("benchmarks", "--offline-latency", "soon")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "--offline-latency must be a number" in bad.stderr.str()
