"""The shared weather: what kind of failure a record shows, one backoff every worker waits out
(honouring retry-after), the breaker that stops after a streak of one kind, and the free API
check of the pre-flight against a real local server."""

from __future__ import annotations

import json
import multiprocessing
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.agents import claude_stream
from pytest_ponybench.core.records import Record, loaded
from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.store import weather
from pytest_ponybench.store.weather import Policy, Weather, check_api, kind_of


def rec(cell: str = "c", **fields: Any) -> Record:
    return loaded({"cell_id": cell, "task": "t", "arm": "a", "model": "m", "run": 0, **fields})


OVERLOADED = {"valid": False, "error": "API error 529: overloaded", "api_error_status": 529}
REFUSED = {"valid": False, "error": "API error (no status): API Error: Connection refused (ECONNREFUSED)"}


@pytest.mark.parametrize(
    ("fields", "kind"),
    [
        ({"valid": True, "correct": False}, None),
        (OVERLOADED, weather.OVERLOADED),
        (
            {"valid": False, "error": "API error 429: slow down", "api_error_status": 429},
            weather.RATE_LIMITED,
        ),
        ({"valid": False, "error": "API error 503", "api_error_status": 503}, weather.SERVER_ERROR),
        (
            {"valid": False, "error": "API error 401: invalid x-api-key", "api_error_status": 401},
            weather.CREDENTIALS,
        ),
        (REFUSED, weather.UNREACHABLE),
        ({"valid": False, "error": "API error (no status): Request timed out"}, weather.UNREACHABLE),
        ({"valid": False, "error": "claude could not start: No such file"}, weather.NO_START),
        (
            {"valid": False, "error": "API error 400: bad", "api_error_status": 400},
            "invalid session (HTTP 400)",
        ),
        ({"valid": False, "error": "interrupted before the cell finished"}, None),
        ({"valid": False, "error": "harness error: OSError"}, None),
    ],
)
def test_kind_of(fields: dict[str, Any], kind: str | None) -> None:
    assert kind_of(rec(**fields)) == kind


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def time(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.slept.append(s)
        self.now += s


def make(tmp_path: Path, clock: Clock, **policy: Any) -> Weather:
    return Weather(tmp_path, Policy(**policy), clock=clock.time, sleep=clock.sleep)


def test_a_backoff_is_shared_and_honours_retry_after(tmp_path: Path) -> None:
    clock = Clock()
    one, two = make(tmp_path, clock, base_s=2.0), make(tmp_path, clock, base_s=2.0)
    assert one.wait_if_needed() is None and clock.slept == []
    assert one.observe(rec("c1", **OVERLOADED), retry_after=7.5) is None
    # Another worker, which saw nothing itself, waits the server's 7.5 s before its next cell.
    assert two.wait_if_needed() is None
    assert sum(clock.slept) == pytest.approx(7.5)
    state = json.loads((tmp_path / weather.WEATHER).read_text())
    assert state["backoffs"][0]["kind"] == weather.OVERLOADED and state["backoffs"][0]["seconds"] == 7.5


def test_the_backoff_grows_with_the_streak_and_a_valid_cell_resets_it(tmp_path: Path) -> None:
    clock = Clock()
    w = make(tmp_path, clock, base_s=2.0, max_s=100.0, breaker=0)
    waits = []
    for n in range(4):
        w.wait_if_needed()
        w.observe(rec(f"c{n}", **OVERLOADED))
        waits.append(w.state()["until"] - clock.now)
    assert waits == [2.0, 4.0, 8.0, 16.0]
    w.wait_if_needed()
    w.observe(rec("ok", valid=True))
    assert w.state()["streak"]["count"] == 0


def test_the_breaker_stops_after_a_streak_of_one_kind(tmp_path: Path) -> None:
    clock = Clock()
    w = make(tmp_path, clock, breaker=3, base_s=1.0)
    w.wait_if_needed()
    assert w.observe(rec("a", **REFUSED)) is None
    w.wait_if_needed()
    assert w.observe(rec("b", **OVERLOADED)) is None  # another kind: a new streak
    for cell in ("c", "d"):
        w.wait_if_needed()
        assert w.observe(rec(cell, **REFUSED)) is None
    w.wait_if_needed()
    reason = w.observe(rec("e", **REFUSED))
    assert reason is not None
    assert "3 consecutive invalid cells" in reason and weather.UNREACHABLE in reason and "e:" in reason
    # From now on no cell starts, on any worker.
    assert make(tmp_path, clock).wait_if_needed() == reason
    assert Weather(tmp_path).stopped() == reason


def test_cells_already_running_do_not_lengthen_the_streak(tmp_path: Path) -> None:
    clock = Clock()
    workers = [make(tmp_path, clock, breaker=3, base_s=0.001) for _ in range(8)]
    for w in workers:  # eight cells start together ...
        assert w.wait_if_needed() is None
    clock.now += 5
    for n, w in enumerate(workers):  # ... and all fail: one piece of evidence, not eight
        assert w.observe(rec(f"c{n}", **REFUSED)) is None
        clock.now += 0.1
    assert Weather(tmp_path).state()["streak"]["count"] == 1


def _worker(run_dir: str, name: str) -> None:
    base = Path(run_dir)
    (base / f"{name}.ready").touch()
    while not (base / "go").exists():
        time.sleep(0.02)
    Weather(base, Policy(base_s=0.1)).wait_if_needed()
    (base / f"{name}.json").write_text(json.dumps({"started": time.time()}))


def test_workers_in_other_processes_wait_out_the_backoff(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_worker, args=(str(tmp_path), f"w{i}")) for i in range(3)]
    for p in procs:
        p.start()
    deadline = time.time() + 60
    while len(list(tmp_path.glob("*.ready"))) < 3 and time.time() < deadline:
        time.sleep(0.05)
    # One worker meets a 529; the others, already waiting to start a cell, honour its backoff.
    Weather(tmp_path, Policy(base_s=0.1)).observe(rec("c", **OVERLOADED), retry_after=2.0)
    (tmp_path / "go").touch()
    for p in procs:
        p.join(60)
    state = Weather(tmp_path).state()
    started = [json.loads((tmp_path / f"w{i}.json").read_text())["started"] for i in range(3)]
    assert all(s >= state["until"] for s in started), (state["until"], started)
    assert len({w["pid"] for w in state["waits"]}) == 3  # each of them waited, and logged it
    assert all(w["to"] >= state["until"] for w in state["waits"])


def test_retry_after_is_read_from_the_clis_retry_events(tmp_path: Path) -> None:
    stream = tmp_path / "claude.jsonl"
    events = [
        {"type": "system", "subtype": "init"},
        {"type": "system", "subtype": "api_retry", "attempt": 1, "retry_delay_ms": 3625, "error_status": 529},
        {
            "type": "system",
            "subtype": "api_retry",
            "attempt": 2,
            "retry_delay_ms": 11488,
            "error_status": 529,
        },
        {"type": "result", "is_error": True},
    ]
    stream.write_text("\n".join(json.dumps(e) for e in events) + "\nnot json\n")
    assert claude_stream.parse(stream).retry_after_s == pytest.approx(11.488)
    assert claude_stream.parse(tmp_path / "none.jsonl").retry_after_s is None


# -- the pre-flight's API check, against the offline server (a real HTTP server) -------------------


@pytest.fixture
def server(tmp_path: Path) -> Any:
    with OfflineServer() as srv:
        srv.register("pre", CellScript(tmp_path, {}, {}))
        yield srv


def test_a_reachable_api_that_takes_the_key(server: OfflineServer) -> None:
    env = {"ANTHROPIC_BASE_URL": server.cell_url("pre"), "ANTHROPIC_API_KEY": "k", "HOME": "/nonexistent"}
    found = check_api("offline-reference", env)
    assert found.ok and found.status == 200
    assert "reachable" in found.verdict and "ANTHROPIC_API_KEY" in found.verdict
    log = server.requests("pre")
    assert [r["path"] for r in log] == ["/cell/pre/v1/messages/count_tokens"]  # free: no messages call


def test_refused_credentials_are_named(server: OfflineServer) -> None:
    env = {"ANTHROPIC_BASE_URL": server.cell_url("pre"), "ANTHROPIC_AUTH_TOKEN": "t", "HOME": "/nonexistent"}
    found = check_api("offline-error-401", env)
    assert not found.ok and found.status == 401
    assert "credentials refused" in found.describe() and "ANTHROPIC_AUTH_TOKEN" in found.verdict


def test_an_unreachable_api_is_named(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again when the block ends: nothing listens there
    env = {"ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}", "ANTHROPIC_API_KEY": "k"}
    found = check_api("sonnet", env, timeout_s=5)
    assert not found.ok and found.status is None
    assert found.verdict.startswith(f"API unreachable at http://127.0.0.1:{port}")


def test_no_credentials_at_all(tmp_path: Path) -> None:
    found = check_api("sonnet", {"HOME": str(tmp_path)})
    assert not found.ok and found.verdict.startswith("no credentials")


def test_the_users_login_is_used(tmp_path: Path, server: OfflineServer) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / ".credentials.json").write_text(
        json.dumps({"claudeAiOauth": {"accessToken": "o"}})
    )
    env = {"HOME": str(tmp_path), "ANTHROPIC_BASE_URL": server.cell_url("pre")}
    headers, source = weather.credentials(env) or ({}, "")
    assert headers["authorization"] == "Bearer o" and headers["anthropic-beta"] == weather.OAUTH_BETA
    found = check_api("offline-reference", env)
    assert found.ok and ".credentials.json" in found.verdict
