"""The model gateway: every model request a cell makes goes through it, offline or live.

One per process that runs sessions, on a unix socket of the harness (bound into each confined
cell, whose only network it is) and on a loopback port (for a session that cannot be confined).
Each session gets a seat (`open`): a token of its own, valid only while the seat is open, for the
models its run allows, and the upstream its requests go to (the offline server's cell URL, or
the Anthropic API with the harness's own credential). It speaks the Anthropic Messages API
(`anthropic.py`) and, for Codex, the OpenAI Responses API (`responses.py`). Per request the
gateway checks the token, the model and the run's budget, forwards the request untouched but
for the credential, relays the answer as it streams, and meters it: tokens, dollars at the
pinned list price, latency, status, the session that asked. The seat's log (`gateway.jsonl` in
the cell's folder) keeps, per request, what reached the model (the messages new since that
session's last request, the system prompt, the tools offered) and what the model answered (its
content blocks, tool calls included), bounded.
"""

from __future__ import annotations

import atexit
import bisect
import json
import os
import secrets
import shutil
import socket
import socketserver
import sys
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import HTTPServer
from pathlib import Path
from typing import Any, Protocol, cast

from pytest_ponybench._util.paths import PROBES
from pytest_ponybench._util.serving import Handler, Served, Serving
from pytest_ponybench.core.bounded import bounded_value
from pytest_ponybench.core.endpoint import is_offline
from pytest_ponybench.core.prices import cost_usd, list_price
from pytest_ponybench.gateway.anthropic import Reading
from pytest_ponybench.gateway.forward import ClientGone, UpstreamError, forward
from pytest_ponybench.gateway.meter import Metered
from pytest_ponybench.gateway.responses import ResponsesReading
from pytest_ponybench.gateway.upstream import Upstream

__all__ = ["BudgetGate", "Gateway", "LOG_STRING_CHARS", "Seat", "TOKEN_PREFIX", "Ticket", "shared"]

TOKEN_PREFIX = "ponybench-gw-"
LOG_STRING_CHARS = 100_000  # each string of a logged request or answer
_BODY_LIMIT = 64_000_000  # a request body larger than this is refused
_ENDPOINTS = ("/v1/messages", "/v1/messages/count_tokens", "/v1/responses")
_ASKS = ("/v1/messages", "/v1/responses")  # what a budget is asked before: a model's answer
_PROBES = ("/", "/api/hello", "/v1/models")
_KEEP_HEADERS_OUT = frozenset({"connection", "keep-alive", "proxy-connection", "upgrade", "te", "trailer"})


class BudgetGate(Protocol):
    """The run's budget, asked before each request and told its cost after."""

    def admit(self, usd: float) -> str | None:
        """None when a request estimated at usd may go; else why not."""
        ...

    def charge(self, usd: float) -> None: ...


@dataclass(frozen=True)
class Ticket:
    """A seat's key and where it reaches the gateway."""

    token: str
    url: str  # the loopback URL (a session that is not confined)
    socket: Path  # the unix socket (bound into a confined session)
    bridge: Path  # the bridge a confined session starts under (a copy, beside the socket)


@dataclass
class Seat:
    """One session's place at the gateway, and what it asked."""

    cell_id: str
    upstream: Upstream
    kind: str = "cell"  # or "judge"
    models: tuple[str, ...] | None = None  # allowed (a name, or an alias inside the asked name)
    side_model: str | None = None  # an offline seat: a model it does not serve is played by this
    log: Path | None = None
    budget: BudgetGate | None = None
    requests: list[Metered] = field(default_factory=list)  # in the order they arrived
    refused: str | None = None  # the budget stopped one of its requests
    closed: bool = False
    _logged: dict[str, int] = field(default_factory=dict)  # session -> messages already logged
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _inflight: int = 0
    _idle: threading.Condition = field(default_factory=threading.Condition)

    def enter(self) -> bool:
        """A request begins; False once the seat is closed (the token is refused)."""
        with self._idle:
            if self.closed:
                return False
            self._inflight += 1
            return True

    def leave(self) -> None:
        with self._idle:
            self._inflight -= 1
            self._idle.notify_all()

    def drain(self, timeout_s: float) -> None:
        """Close, then wait for the requests under way to be metered (a session's last answer
        reaches its CLI a moment before the gateway has written it down)."""
        with self._idle:
            self.closed = True
            self._idle.wait_for(lambda: self._inflight == 0, timeout=timeout_s)

    def quiet(self, timeout_s: float) -> int:
        """Wait for the requests under way to be metered, the seat left open (a conversation's
        next turn comes on it); how many it has metered."""
        with self._idle:
            self._idle.wait_for(lambda: self._inflight == 0, timeout=timeout_s)
        with self._lock:
            return len(self.requests)

    def allows(self, model: str) -> bool:
        if self.models is None:
            return True
        name = model.lower()
        return any(m.lower() == name or m.lower() in name for m in self.models)

    def new_messages(self, session: str, messages: list[Any]) -> tuple[int, list[Any]]:
        """The messages this session's log has not shown yet (a conversation only grows)."""
        with self._lock:
            seen = self._logged.get(session, 0)
            seen = seen if seen <= len(messages) else 0  # a new conversation under the same id
            self._logged[session] = len(messages)
        return seen, messages[seen:]


class Gateway(Served):
    """The gateway of one process; start once, `open` a seat per session, `close` it after."""

    def __init__(self) -> None:
        self._seats: dict[str, Seat] = {}
        self._lock = threading.Lock()
        self._count = 0
        self._folder: Path | None = None
        self._serving: list[Serving] = []
        self.stopping = threading.Event()

    # ------------------------------------------------------------ life

    @property
    def started(self) -> bool:
        return bool(self._serving)

    def start(self) -> None:
        if self._serving:
            return
        self._folder = Path(tempfile.mkdtemp(prefix="ponybench-gateway-", dir=_socket_root()))
        os.chmod(self._folder, 0o711)  # the socket is bound into cells by path; nobody lists it
        shutil.copyfile(PROBES / "netbridge.py", self.bridge)  # never the package's own file
        os.chmod(self.bridge, 0o644)
        unix = _UnixFront(str(self.socket), self)
        os.chmod(self.socket, 0o666)  # a confined cell's user may be mapped to nobody
        tcp = _TcpFront(("127.0.0.1", 0), self)
        for server in (unix, tcp):
            self._serving.append(Serving(server, "ponybench-gateway"))

    def stop(self) -> None:
        serving, self._serving = self._serving, []
        self.stopping.set()
        for loop in serving:
            loop.stop()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None
        self.stopping.clear()

    @property
    def socket(self) -> Path:
        if self._folder is None:
            raise RuntimeError("the gateway is not started")
        return self._folder / "gateway.sock"

    @property
    def bridge(self) -> Path:
        if self._folder is None:
            raise RuntimeError("the gateway is not started")
        return self._folder / "netbridge.py"

    @property
    def url(self) -> str:
        tcp = next((s.server for s in self._serving if isinstance(s.server, _TcpFront)), None)
        if tcp is None:
            raise RuntimeError("the gateway is not started")
        return f"http://127.0.0.1:{tcp.server_address[1]}"

    # ------------------------------------------------------------ seats

    def open(
        self,
        cell_id: str,
        upstream: Upstream,
        *,
        kind: str = "cell",
        models: Sequence[str] | None = None,
        side_model: str | None = None,
        log: Path | None = None,
        budget: BudgetGate | None = None,
    ) -> Ticket:
        """A seat for one session; its token is refused once the seat is closed."""
        self.start()
        token = TOKEN_PREFIX + secrets.token_urlsafe(24)
        seat = Seat(
            cell_id,
            upstream,
            kind=kind,
            models=tuple(models) if models is not None else None,
            side_model=side_model,
            log=log,
            budget=budget,
        )
        with self._lock:
            self._seats[token] = seat
        return Ticket(token, self.url, self.socket, self.bridge)

    def close(self, ticket: Ticket, timeout_s: float = 10.0) -> Seat:
        """The seat, closed: its token is refused from now on; what it asked, every request
        under way metered first (or given up on after timeout_s)."""
        with self._lock:
            seat = self._seats.pop(ticket.token)
        seat.drain(timeout_s)
        return seat

    def seat(self, token: str | None) -> Seat | None:
        if not token:
            return None
        with self._lock:
            return self._seats.get(token)

    def _next(self) -> int:
        with self._lock:
            self._count += 1
            return self._count

    # ------------------------------------------------------------ one request

    def handle(self, seat: Seat, front: _Handler, body: bytes) -> None:
        """Check, forward, relay and meter one request of seat."""
        n = self._next()
        when = datetime.now(UTC).isoformat(timespec="milliseconds")
        path = front.path
        route = path.split("?", 1)[0]
        # Claude Code names its session in its own header, OpenCode in x-session-id, Codex in
        # session-id; Copilot names none (its requests are told apart by having none:
        # meter.source_of).
        session = (
            front.headers.get("x-claude-code-session-id")
            or front.headers.get("x-session-id")
            or front.headers.get("session-id")
        )
        try:
            data: Any = json.loads(body) if body else None
        except (ValueError, RecursionError):
            data = None
        fields: dict[str, Any] = data if isinstance(data, dict) else {}
        model = str(fields.get("model") or "")
        served = model
        if front.command in ("HEAD", "GET"):
            if route not in _PROBES:
                front.answer_error(404, "not_found_error", f"ponybench gateway: no such endpoint {route}")
                return
        elif route not in _ENDPOINTS:
            front.answer_error(404, "not_found_error", f"ponybench gateway: no such endpoint {route}")
            return
        if model:
            if seat.side_model is not None and not is_offline(model):
                served = seat.side_model  # an offline cell's side call: played offline, never sent out
                fields["model"] = served
                body = json.dumps(fields).encode()
            elif not seat.allows(model):
                allowed = ", ".join(seat.models or ())
                message = f"ponybench gateway: the model {model} is not one this run allows ({allowed})"
                self._done(
                    seat,
                    Metered(n, when, seat.kind, session, model, served, 403, error=message),
                    fields,
                    None,
                )
                front.answer_error(403, "permission_error", message)
                return
        if seat.budget is not None and model and route in _ASKS:
            refused = seat.budget.admit(_estimate(served, len(body)))
            if refused is not None:
                seat.refused = refused
                metered = Metered(n, when, seat.kind, session, model, served, 400, refused=refused)
                self._done(seat, metered, fields, None)
                front.answer_error(400, "invalid_request_error", f"ponybench gateway: {refused}")
                return
        # Codex speaks the OpenAI Responses API; every other CLI Anthropic's Messages API.
        reading: Reading | ResponsesReading = ResponsesReading("") if route == _ASKS[1] else Reading("")
        try:
            done = forward(
                seat.upstream,
                front.command,
                path,
                front.headers.items(),
                body,
                client=cast(socket.socket, front.connection),
                send_head=lambda status, reason, headers: front.relay_head(status, reason, headers, reading),
                send_body=front.relay_body,
                feed=reading.feed,
            )
        except UpstreamError as exc:
            metered = Metered(n, when, seat.kind, session, model, served, exc.status, error=str(exc))
            self._done(seat, metered, fields, None)
            if exc.unreachable:
                # As if the API were not there: the CLI sees the connection it would have seen
                # (and says "connection error"), not an HTTP status the API never sent.
                front.close_connection = True
                front.drop()
                return
            front.answer_error(exc.status, "api_error", f"ponybench gateway: {exc}")
            return
        answer = reading.finish()
        priced = cost_usd(served, answer.usage)
        error = "the client left before the answer ended" if done.client_gone else None
        if error is None and not done.complete and done.status < 300:
            error = "the upstream broke off before the answer ended"
        if answer.error is not None and error is None:
            error = str(answer.error.get("message") or answer.error)[:500]
        metered = Metered(
            n,
            when,
            seat.kind,
            session,
            model,
            served,
            done.status,
            usage=answer.usage,
            cost_usd=priced or 0.0,
            priced=priced is not None,
            first_byte_ms=None if done.first_byte_s is None else done.first_byte_s * 1000,
            total_ms=done.total_s * 1000,
            stop_reason=answer.stop_reason,
            tool_use_ids=tuple(answer.tool_use_ids),
            error=error,
        )
        self._done(
            seat, metered, fields, [{k: v for k, v in b.items() if k != "_index"} for b in answer.content]
        )
        if done.client_gone or not done.complete:
            front.close_connection = True

    def _done(self, seat: Seat, metered: Metered, request: dict[str, Any], content: list[Any] | None) -> None:
        """Keep the request's figures, charge the budget, and log what reached the model."""
        # In the order the requests arrived, not the order they ended: an answer relayed in full
        # lets the client ask again before this thread has written the last one down.
        with seat._lock:
            bisect.insort(seat.requests, metered, key=lambda m: m.n)
        if seat.budget is not None and metered.cost_usd:
            seat.budget.charge(metered.cost_usd)
        if seat.log is None:
            return
        line = metered.as_log()
        # A Messages request's system and messages; a Responses request's instructions and input.
        messages = request.get("messages", request.get("input"))
        if isinstance(messages, list):
            first, new = seat.new_messages(metered.session or "", messages)
            tools = request.get("tools")
            system = request.get("system", request.get("instructions"))
            line["request"] = {
                "system": bounded_value(system, LOG_STRING_CHARS, redacting=True),
                "tools": [t.get("name") for t in tools if isinstance(t, dict)]
                if isinstance(tools, list)
                else [],
                "messages_from": first,
                "messages": bounded_value(new, LOG_STRING_CHARS, redacting=True),
            }
        if content is not None:
            line["response"] = bounded_value(content, LOG_STRING_CHARS, redacting=True)
        text = json.dumps(line, ensure_ascii=False, default=str) + "\n"
        with seat._lock:
            seat.log.parent.mkdir(parents=True, exist_ok=True)
            with seat.log.open("a", encoding="utf-8") as out:
                out.write(text)


# A unix socket's path is at most 107 bytes: a deep TMPDIR falls back to a short folder.
_SOCKET_PATH_MAX = 100


def _socket_root() -> str | None:
    """Where the gateway's folder goes: the temp folder, unless its socket's path would be too
    long there (a deep TMPDIR); then /tmp or /dev/shm."""
    candidates = [tempfile.gettempdir(), "/tmp", "/dev/shm"]
    for root in candidates:
        if len(root) + len("/ponybench-gateway-xxxxxxxx/gateway.sock") <= _SOCKET_PATH_MAX and os.access(
            root, os.W_OK | os.X_OK
        ):
            return root
    return None


_SHARED: tuple[int, Gateway] | None = None
_SHARED_LOCK = threading.Lock()


def shared() -> Gateway:
    """This process's own gateway, started on first use and stopped when the process exits
    (a caller with no gateway of its own: a test, a script, a pre-flight)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None or _SHARED[0] != os.getpid():
            gateway = Gateway()
            gateway.start()
            atexit.register(gateway.stop)
            _SHARED = (os.getpid(), gateway)
        return _SHARED[1]


def _estimate(model: str, body_bytes: int) -> float:
    """What a request costs at least before its answer: its input (about 4 bytes a token) at
    the model's input price; 0 for a model with no list price."""
    price = list_price(model)
    return 0.0 if price is None else body_bytes / 4 * price[0] / 1e6


# ---------------------------------------------------------------- HTTP


class _Handler(Handler):
    """Reads a request, hands it to the gateway, writes what the gateway relays (each seat's log
    is the record)."""

    server_version = "ponybench-gateway/1"
    body_limit = _BODY_LIMIT

    @property
    def gateway(self) -> Gateway:
        return cast(Any, self.server).gateway  # type: ignore[no-any-return]

    def _serve(self) -> None:
        try:
            body = self.read_body()
        except ValueError:
            self.answer_error(400, "invalid_request_error", "ponybench gateway: a malformed request body")
            return
        if body is None:
            self.close_connection = True
            self.answer_error(413, "request_too_large", "ponybench gateway: the request body is too large")
            return
        token = self.headers.get("x-api-key")
        auth = self.headers.get("authorization") or ""
        if not token and auth.lower().startswith("bearer "):
            token = auth[7:].strip()
        seat = self.gateway.seat(token)
        if seat is None or not seat.enter():
            self.answer_error(
                401,
                "authentication_error",
                "ponybench gateway: this key is not valid here "
                "(a cell's key is valid only while its cell runs)",
            )
            return
        try:
            self.gateway.handle(seat, self, body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            seat.leave()

    # ------------------------------------------------------------ writing

    def answer_error(self, status: int, kind: str, message: str) -> None:
        payload = json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()
        try:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("request-id", "req_gw_" + secrets.token_hex(8))
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(payload)
        except OSError:
            self.close_connection = True

    def relay_head(
        self, status: int, reason: str, headers: list[tuple[str, str]], reading: Reading | ResponsesReading
    ) -> None:
        """The upstream's answer head, as it came but for what belongs to one connection."""
        lines = [f"HTTP/1.1 {status} {reason}".rstrip()]
        framed = False
        for name, value in headers:
            low = name.lower()
            if low in _KEEP_HEADERS_OUT:
                continue
            if low in ("transfer-encoding", "content-length"):
                framed = True
            if low == "content-type":
                reading.sse = "event-stream" in value.lower()
            lines.append(f"{name}: {value}")
        if not framed and self.command != "HEAD" and status not in (204, 304):
            lines.append("Connection: close")  # the body ends when the connection does
            self.close_connection = True
        self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))

    def relay_body(self, data: bytes) -> None:
        self.wfile.write(data)

    def drop(self) -> None:
        """End the connection with no answer (reset, as a refused upstream would)."""
        try:
            sock = cast(socket.socket, self.connection)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class _UnixFront(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True

    def __init__(self, path: str, gateway: Gateway) -> None:
        self.gateway = gateway
        super().__init__(path, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        _one_line(sys.exc_info()[1])


class _TcpFront(socketserver.ThreadingMixIn, HTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], gateway: Gateway) -> None:
        self.gateway = gateway
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        socketserver.TCPServer.server_bind(self)  # no getfqdn: a name lookup is not needed here
        self.server_name, self.server_port = "127.0.0.1", self.server_address[1]

    def handle_error(self, request: Any, client_address: Any) -> None:
        _one_line(sys.exc_info()[1])


def _one_line(exc: BaseException | None) -> None:
    """One line, not socketserver's traceback: the seat's log says what went wrong."""
    if isinstance(exc, ClientGone | BrokenPipeError | ConnectionResetError):
        return
    print(f"ponybench gateway: a request failed: {type(exc).__name__}: {exc}", file=sys.stderr)
