"""The model gateway on its own: a real gateway in front of the real offline server (and of
small loopback servers that misbehave on purpose), asked over HTTP as a CLI asks it. No claude
here: the CLI through the gateway is tests/integration/test_gateway.py."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.core.prices import cost_usd
from pytest_ponybench.core.transcript import Usage
from pytest_ponybench.gateway import meter
from pytest_ponybench.gateway.anthropic import Reading
from pytest_ponybench.gateway.forward import Chunks, UpstreamError
from pytest_ponybench.gateway.server import Gateway, Ticket
from pytest_ponybench.gateway.upstream import Upstream, from_environment
from pytest_ponybench.offline import wire
from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer


@pytest.fixture(scope="module")
def offline() -> Iterator[OfflineServer]:
    with OfflineServer() as server:
        yield server


@pytest.fixture
def gateway() -> Iterator[Gateway]:
    with Gateway() as gw:
        yield gw


def body(model: str = "offline-idle", stream: bool = True, **more: Any) -> dict[str, Any]:
    return {
        "model": model,
        "max_tokens": 32000,
        "stream": stream,
        "system": [{"type": "text", "text": "You are a test."}],
        "tools": [{"name": "Write", "input_schema": {}}, {"name": "Edit", "input_schema": {}}],
        "messages": [{"role": "user", "content": "Say hello."}],
        **more,
    }


def post(
    ticket: Ticket | str,
    payload: dict[str, Any] | bytes,
    *,
    url: str | None = None,
    path: str = "/v1/messages?beta=true",
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request as the CLI sends it, over the gateway's loopback port."""
    token = ticket if isinstance(ticket, str) else ticket.token
    port = int((url or (ticket.url if isinstance(ticket, Ticket) else "")).rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    sent = {"x-api-key": token, "content-type": "application/json", "x-claude-code-session-id": "s-main"}
    conn.request("POST", path, data, {**sent, **(headers or {})})
    resp = conn.getresponse()
    out = resp.read()
    conn.close()
    return resp.status, {k.lower(): v for k, v in resp.getheaders()}, out


def seat_of(gateway: Gateway, offline: OfflineServer, cell: str, tmp: Path, **kw: Any) -> Ticket:
    offline.register(cell, CellScript(workspace=tmp.resolve(), good={}, bad={}))
    return gateway.open(cell, Upstream(offline.cell_url(cell)), **kw)


def settled(gateway: Gateway, ticket: Ticket, n: int) -> None:
    """Until the seat has metered n requests: an answer reaches the client a moment before the
    gateway has written it down (closing a seat waits for that; this is for a seat kept open)."""
    deadline = time.monotonic() + 10
    seat = gateway.seat(ticket.token)
    while seat is not None and len(seat.requests) < n and time.monotonic() < deadline:
        time.sleep(0.01)


def ask_offline_hang(ticket: Ticket) -> socket.socket:
    """A request to offline-hang, sent on a raw connection the caller holds open (or closes, as
    a CLI that gave up would): no answer ever comes on it."""
    port = int(ticket.url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port))
    data = json.dumps(body(model="offline-hang")).encode()
    head = f"POST /v1/messages HTTP/1.1\r\nHost: x\r\nx-api-key: {ticket.token}\r\n"
    sock.sendall(head.encode() + f"content-length: {len(data)}\r\n\r\n".encode() + data)
    return sock


def events(raw: bytes) -> list[dict[str, Any]]:
    return [json.loads(line[5:]) for line in raw.split(b"\n") if line.startswith(b"data:")]


# ---------------------------------------------------------------- reading an answer


def test_a_streamed_answer_is_read_in_any_pieces() -> None:
    reply = wire.with_tool_ids(
        wire.tools([("Write", {"file_path": "/w/a.py", "content": "x = 1\n" * 400})]), b"s"
    )
    message = wire.message("offline-reference", reply, wire.usage({"messages": []}, reply), "msg_1")
    data = b"".join(wire.stream_response(message).parts)
    for size in (1, 7, 4096, len(data)):
        reading = Reading("text/event-stream")
        for at in range(0, len(data), size):
            reading.feed(data[at : at + size])
        answer = reading.finish()
        assert answer.complete and answer.stop_reason == "tool_use"
        (call,) = answer.content
        assert call["type"] == "tool_use" and call["input"] == reply.content[0]["input"], size
        assert answer.usage == Usage(
            message["usage"]["input_tokens"],
            message["usage"]["output_tokens"],
            message["usage"]["cache_read_input_tokens"],
            message["usage"]["cache_creation_input_tokens"],
        )


def test_a_json_answer_an_error_and_a_cut_stream() -> None:
    message = wire.message("m", wire.text("hi"), {"input_tokens": 5, "output_tokens": 2}, "msg_2")
    whole = Reading("application/json")
    whole.feed(json.dumps(message).encode())
    answer = whole.finish()
    assert answer.complete and answer.usage == Usage(5, 2) and answer.content[0]["text"] == "hi"
    error = Reading("application/json")
    error.feed(json.dumps(wire.ApiError(529, "overloaded_error", "busy").payload()).encode())
    assert error.finish().error == {"type": "overloaded_error", "message": "busy"}
    cut = wire.cut_response(message, stream=True)
    partial = Reading("text/event-stream")
    partial.feed(b"".join(cut.parts))
    got = partial.finish()
    assert not got.complete and got.usage.input_tokens == 5  # what message_start said is kept


def test_chunked_bodies_are_decoded_across_any_boundary() -> None:
    encoded = b"5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nTrailer: x\r\n\r\n"
    for size in (1, 3, len(encoded)):
        chunks, out = Chunks(), b""
        for at in range(0, len(encoded), size):
            out += chunks.feed(encoded[at : at + size])
        assert out == b"hello, world" and chunks.done
    with pytest.raises(UpstreamError, match="malformed"):
        Chunks().feed(b"zz\r\n")


def test_prices_and_sources() -> None:
    usage = Usage(1_000_000, 1_000_000, 1_000_000, 1_000_000)
    assert cost_usd("claude-sonnet-4-5", usage) == pytest.approx(3 + 15 + 0.30 + 3.75)
    assert cost_usd("offline-reference", usage) == cost_usd("sonnet", usage)  # notional
    assert cost_usd("gpt-4o", usage) is None
    main = meter.Metered(1, "t", "cell", "s1", "m", "m", 200, Usage(10, 1), 0.5)
    side = meter.Metered(2, "t", "cell", "s2", "m", "m", 200, Usage(20, 2), 0.25)
    judge = meter.Metered(3, "t", "judge", "s3", "m", "m", 200, Usage(5), 0.125)
    refused = meter.Metered(4, "t", "cell", "s1", "m", "m", 400, refused="budget")
    split = meter.by_source([main, side, judge, refused], "s1")
    assert list(split) == ["main", "side", "judge"]
    assert (split["main"].requests, split["side"].cost_usd, split["judge"].input_tokens) == (1, 0.25, 5)
    assert meter.by_source([main, side], None)["main"].requests == 2  # no session known: all its own


def test_the_harness_credential_is_found_and_never_a_cells() -> None:
    assert from_environment({"HOME": "/nonexistent"}) is None
    key = from_environment({"ANTHROPIC_API_KEY": "sk-ant-x", "HOME": "/nonexistent"})
    assert (
        key is not None and key.headers == (("x-api-key", "sk-ant-x"),) and key.base_url.startswith("https")
    )
    token = from_environment({"ANTHROPIC_AUTH_TOKEN": "t", "ANTHROPIC_BASE_URL": "http://127.0.0.1:1"})
    assert token is not None and token.headers == (("authorization", "Bearer t"),) and token.local


def test_an_oauth_login_is_used_upstream(tmp_path: Path) -> None:
    creds = tmp_path / ".claude" / ".credentials.json"
    creds.parent.mkdir()
    creds.write_text(json.dumps({"claudeAiOauth": {"accessToken": "oauth-abc"}}))
    found = from_environment({"HOME": str(tmp_path)})
    assert found is not None and found.headers == (("authorization", "Bearer oauth-abc"),)
    assert found.beta == "oauth-2025-04-20" and found.credential == "oauth"


# ---------------------------------------------------------------- through the gateway


def test_a_request_is_relayed_metered_and_logged(
    gateway: Gateway, offline: OfflineServer, tmp_path: Path
) -> None:
    log = tmp_path / "gateway.jsonl"
    ticket = seat_of(gateway, offline, "relay", tmp_path, log=log)
    status, headers, raw = post(ticket, body())
    assert status == 200 and headers["content-type"] == "text/event-stream"
    kinds = [e["type"] for e in events(raw)]
    assert kinds[0] == "message_start" and kinds[-1] == "message_stop"
    follow = body(
        messages=[
            *body()["messages"],
            {"role": "assistant", "content": "hi"},
            {"role": "user", "content": "again"},
        ]
    )
    assert post(ticket, follow)[0] == 200
    seat = gateway.close(ticket)
    first, second = seat.requests
    assert first.status == 200 and first.usage.input_tokens > 0 and first.cost_usd > 0
    assert first.session == "s-main" and first.stop_reason == "end_turn" and first.first_byte_ms is not None
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["n"] for line in lines] == [first.n, second.n]
    # What reached the model, once: the second request logs only the messages new since the first.
    assert lines[0]["request"]["messages_from"] == 0 and len(lines[0]["request"]["messages"]) == 1
    assert lines[1]["request"]["messages_from"] == 1
    assert [m["content"] for m in lines[1]["request"]["messages"]] == ["hi", "again"]
    assert lines[0]["request"]["tools"] == ["Write", "Edit"]
    assert lines[0]["response"][0]["type"] == "text"
    # The offline server saw the request with no token of the cell's.
    (asked, *_rest) = offline.requests("relay")
    assert "x-api-key" not in {k.lower() for k in asked["headers"]}


def test_the_unix_socket_answers_as_the_port_does(
    gateway: Gateway, offline: OfflineServer, tmp_path: Path
) -> None:
    ticket = seat_of(gateway, offline, "unix", tmp_path)

    class UnixConnection(http.client.HTTPConnection):
        def connect(self) -> None:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.connect(str(ticket.socket))

    conn = UnixConnection("localhost")
    conn.request("POST", "/v1/messages", json.dumps(body(stream=False)), {"x-api-key": ticket.token})
    resp = conn.getresponse()
    answer = json.loads(resp.read())
    assert resp.status == 200 and answer["type"] == "message"
    seat = gateway.close(ticket)
    assert seat.requests[0].usage.output_tokens == answer["usage"]["output_tokens"]


def test_a_token_is_refused_once_its_seat_closes_and_never_shared(
    gateway: Gateway, offline: OfflineServer, tmp_path: Path
) -> None:
    ticket = seat_of(gateway, offline, "closing", tmp_path)
    other = seat_of(gateway, offline, "other", tmp_path)
    assert ticket.token != other.token and ticket.token.startswith("ponybench-gw-")
    assert post(ticket, body())[0] == 200
    gateway.close(ticket)
    status, _, raw = post(ticket, body())
    assert status == 401 and b"valid only while its cell runs" in raw
    assert post("sk-ant-guessed", body(), url=ticket.url)[0] == 401
    assert post(other, body())[0] == 200  # the other seat is untouched
    gateway.close(other)


def test_an_offline_cells_side_call_is_played_offline(
    gateway: Gateway, offline: OfflineServer, tmp_path: Path
) -> None:
    ticket = seat_of(gateway, offline, "side", tmp_path, side_model="offline-idle")
    status, _, raw = post(ticket, body(model="claude-sonnet-4-5", stream=False))
    assert status == 200
    seat = gateway.close(ticket)
    (m,) = seat.requests
    assert (m.model, m.served) == ("claude-sonnet-4-5", "offline-idle") and m.cost_usd > 0
    assert offline.requests("side")[0]["model"] == "offline-idle"


def test_a_live_seat_allows_only_the_runs_models(
    gateway: Gateway, offline: OfflineServer, tmp_path: Path
) -> None:
    offline.register("grid", CellScript(workspace=tmp_path.resolve(), good={}, bad={}))
    ticket = gateway.open("grid", Upstream(offline.cell_url("grid")), models=("offline-idle", "haiku"))
    status, _, raw = post(ticket, body(model="claude-opus-4-5"))
    assert status == 403 and b"not one this run allows" in raw
    assert post(ticket, body(model="offline-idle"))[0] == 200
    seat = gateway.close(ticket)
    assert [m.status for m in seat.requests] == [403, 200]


class Budget:
    def __init__(self, limit: float) -> None:
        self.limit, self.spent = limit, 0.0

    def admit(self, usd: float) -> str | None:
        return None if self.spent + usd <= self.limit else f"spent ${self.spent:.4f} of ${self.limit:g}"

    def charge(self, usd: float) -> None:
        self.spent += usd


def test_the_budget_holds_per_request(gateway: Gateway, offline: OfflineServer, tmp_path: Path) -> None:
    # About 4 bytes a token at the input price: what a request costs at least before its answer.
    estimate = len(json.dumps(body())) / 4 * 3.0 / 1e6
    budget = Budget(estimate * 1.2)
    ticket = seat_of(gateway, offline, "budget", tmp_path, budget=budget)
    assert post(ticket, body())[0] == 200  # the first fits
    settled(gateway, ticket, 1)
    assert budget.spent > estimate * 0.2  # and is charged what it cost: the next cannot fit
    status, _, raw = post(ticket, body())
    assert status == 400 and b"ponybench gateway: spent" in raw
    seat = gateway.close(ticket)
    assert seat.refused is not None and seat.requests[-1].refused is not None
    assert len(offline.requests("budget")) == 1  # the refused request never left


def test_upstream_faults_reach_the_client_and_the_meter(
    gateway: Gateway, offline: OfflineServer, tmp_path: Path
) -> None:
    ticket = seat_of(gateway, offline, "faults", tmp_path)
    status, headers, raw = post(ticket, body(model="offline-overloaded"))
    assert status == 529 and json.loads(raw)["error"]["type"] == "overloaded_error"
    status, _, raw = post(ticket, body(model="offline-error-429"))
    assert status == 429
    with pytest.raises(http.client.IncompleteRead):  # a cut stream stays cut for the client
        post(ticket, body(model="offline-cut"))
    seat = gateway.close(ticket)
    statuses = [m.status for m in seat.requests]
    assert statuses == [529, 429, 200]
    assert seat.requests[0].error == "busy" or "overloaded" in (seat.requests[0].error or "")
    assert seat.requests[2].error == "the upstream broke off before the answer ended"
    assert seat.requests[2].usage.input_tokens > 0  # message_start's tokens were metered


def test_the_seat_keeps_its_requests_in_the_order_they_arrived(
    gateway: Gateway, offline: OfflineServer, tmp_path: Path
) -> None:
    ticket = seat_of(gateway, offline, "order", tmp_path)
    first = ask_offline_hang(ticket)
    deadline = time.monotonic() + 10
    while not offline.requests("order") and time.monotonic() < deadline:  # it reached the model
        time.sleep(0.02)
    assert post(ticket, body())[0] == 200  # the second ends first
    first.close()
    seat = gateway.close(ticket)
    assert [m.error for m in seat.requests] == ["the client left before the answer ended", None]
    assert seat.requests[0].n < seat.requests[1].n


def test_an_upstream_that_is_gone_or_silent(gateway: Gateway, tmp_path: Path) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    gone = gateway.open("gone", Upstream(f"http://127.0.0.1:{port}"))
    # Nothing answered upstream, so nothing answers the client: it sees the connection error it
    # would have seen without the gateway (the CLI then says "connection error", not an HTTP 502).
    with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError)):
        post(gone, body())
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)
    quiet = gateway.open("quiet", Upstream(f"http://127.0.0.1:{silent.getsockname()[1]}", timeout_s=1.0))
    started = time.monotonic()
    status, _, raw = post(quiet, body())
    assert status == 504 and time.monotonic() - started < 10
    silent.close()
    assert [m.status for m in gateway.close(gone).requests] == [502]
    assert [m.status for m in gateway.close(quiet).requests] == [504]


def test_a_slow_first_byte_passes_and_is_metered(gateway: Gateway, tmp_path: Path) -> None:
    message = json.dumps(wire.message("m", wire.text("late"), {"input_tokens": 3, "output_tokens": 1}, "x"))
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)

    def slow() -> None:
        conn, _ = listener.accept()
        conn.recv(65536)
        time.sleep(0.6)
        head = f"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {len(message)}\r\n\r\n"
        conn.sendall(head.encode() + message.encode())
        conn.close()

    thread = threading.Thread(target=slow)
    thread.start()
    ticket = gateway.open("slow", Upstream(f"http://127.0.0.1:{listener.getsockname()[1]}"))
    status, _, raw = post(ticket, body(model="claude-haiku-4-5", stream=False))
    thread.join()
    listener.close()
    assert status == 200 and json.loads(raw)["content"][0]["text"] == "late"
    (m,) = gateway.close(ticket).requests
    assert m.first_byte_ms is not None and m.first_byte_ms >= 500 and m.usage == Usage(3, 1)


def test_a_client_that_leaves_ends_the_upstream_request(
    gateway: Gateway, offline: OfflineServer, tmp_path: Path
) -> None:
    ticket = seat_of(gateway, offline, "leaves", tmp_path)
    sock = ask_offline_hang(ticket)
    time.sleep(0.5)
    sock.close()  # the CLI's own timeout
    deadline = time.monotonic() + 10
    while not gateway.seat(ticket.token).requests and time.monotonic() < deadline:  # type: ignore[union-attr]
        time.sleep(0.05)
    (m,) = gateway.close(ticket).requests
    assert m.error == "the client left before the answer ended"
