"""A local model server that speaks the Anthropic Messages API, so the real claude CLI runs offline
(and the OpenAI Responses API, `responses.py`, for Codex).

Point the CLI at ``ANTHROPIC_BASE_URL=<server.cell_url(cell_id)>`` with any non-empty
``ANTHROPIC_API_KEY``; ``--model`` (one of `agents.OFFLINE_MODELS`, or a pattern of
`agents.PATTERNS`) picks the behaviour.

This module owns the cells and the transport: registration, the per-cell request log, holds,
and the HTTP handler. `OfflineServer.answer` turns one request into one `wire.Response`; the
handler only reads requests and writes those answers. What the CLI sends and needs is in
`wire`'s docstring, what each model does in `agents`.
"""

from __future__ import annotations

import json
import os
import select
import socket
import sys
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import quote, unquote, urlsplit

from pytest_ponybench._util import textfiles
from pytest_ponybench._util.serving import Handler, Served, Serving
from pytest_ponybench.offline import agents, wire
from pytest_ponybench.offline import responses as offline_responses
from pytest_ponybench.offline.script import CellScript, CellState

__all__ = ["OfflineServer", "Request"]

_SECRET_HEADER_WORDS = ("key", "auth", "token", "cookie", "secret")
_MESSAGES, _COUNT_TOKENS = "/v1/messages", "/v1/messages/count_tokens"
_RESPONSES = "/v1/responses"  # the OpenAI Responses API: Codex


@dataclass(frozen=True)
class Request:
    """One HTTP request as the handler read it."""

    method: str
    path: str  # as sent: /cell/<id>/..., with its query
    headers: tuple[tuple[str, str], ...]
    raw: bytes


# ---------------------------------------------------------------- the server


class OfflineServer(Served):
    """One per process; serves many cells at once, told apart by the /cell/<id> path prefix."""

    def __init__(self, latency_s: float = 0.0) -> None:
        self._cells: dict[str, CellState] = {}
        self._memory = agents.Memory()
        self.latency_s = latency_s  # a session's minimum length for every model (see _hold)
        self._lock = threading.Lock()
        self._httpd: _HTTPServer | None = None
        self._serving: Serving | None = None

    def start(self) -> None:
        if self._httpd is not None:
            return
        self._httpd = _HTTPServer(self)
        self._serving = Serving(self._httpd, "ponybench-offline")

    def stop(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        httpd.stopping.set()
        httpd.drop_connections()
        serving, self._serving = self._serving, None
        if serving is not None:
            serving.stop()  # and closes httpd

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the offline server is not started")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def cell_url(self, cell_id: str) -> str:
        return f"{self.base_url}/cell/{quote(cell_id, safe='')}"

    def register(self, cell_id: str, script: CellScript) -> None:
        """(Re)register a cell; a fresh registration starts with a fresh log (the once-only
        fault of offline-overloaded-once stays spent for that cell id)."""
        if not script.workspace.is_absolute():
            raise ValueError(f"CellScript.workspace must be absolute: {script.workspace}")
        with self._lock:
            self._cells[cell_id] = CellState(script, cell_id)

    def set_turn(self, cell_id: str, turn: int) -> None:
        """The turn of its conversation a cell's next session plays."""
        with self._lock:
            cell = self._cells.get(cell_id)
            if cell is not None:
                cell.script.turn = turn

    def unregister(self, cell_id: str) -> None:
        with self._lock:
            self._cells.pop(cell_id, None)

    def requests(self, cell_id: str) -> list[dict[str, Any]]:
        with self._lock:
            cell = self._cells.get(cell_id)
            if cell is None:
                return []
            path = cell.script.log_path
            if path is None:
                return list(cell.log)
            return textfiles.read_jsonl(path).objects

    def answer(self, request: Request) -> wire.Response | wire.Silence:
        """The answer to one HTTP request: routed to its cell, played by the model's agent
        (held if the model or the server asks), and logged in the cell's request log."""
        url = urlsplit(request.path)
        parts = url.path.split("/", 3)
        if len(parts) < 3 or parts[1] != "cell" or not parts[2]:
            err = wire.ApiError(404, "not_found_error", f"no /cell/<id>/ prefix in path {url.path!r}")
            return wire.error_response(err)
        cell_id, rest = unquote(parts[2]), "/" + (parts[3] if len(parts) > 3 else "")
        with self._lock:
            cell = self._cells.get(cell_id)
        if cell is None:
            # Not 404: the CLI replaces a 404's message with a generic "issue with the model".
            message = f"cell {cell_id!r} is not registered with the ponybench offline server"
            return wire.error_response(wire.ApiError(400, "invalid_request_error", message))
        try:
            body: object = json.loads(request.raw) if request.raw else None
        except ValueError:
            body = None
        fields = body if isinstance(body, dict) else {}
        record: dict[str, Any] = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "cell": cell_id,
            "method": request.method,
            "path": request.path,
            "model": fields.get("model"),
            "stream": bool(fields.get("stream")),
            "headers": {
                k: v
                for k, v in request.headers
                if not any(word in k.lower() for word in _SECRET_HEADER_WORDS)
            },
            "body": body if body is not None else request.raw.decode("utf-8", errors="replace"),
        }
        responses = rest == _RESPONSES and request.method == "POST" and isinstance(body, dict)
        asked = offline_responses.as_messages(body) if responses and isinstance(body, dict) else body
        try:
            answer = self._play(cell, request.method, _MESSAGES if responses else rest, asked)
        except Exception as exc:  # a bug here must read as one, not as a dropped connection
            record["reply"] = f"error 500 {exc!r}"
            self._log(cell, record)
            bug = wire.ApiError(500, "api_error", f"ponybench offline server bug: {exc!r}")
            return wire.error_response(bug)
        record["reply"] = answer.describe
        self._log(cell, record)
        if responses and isinstance(asked, dict):
            return self._respond(cell, answer, asked, request.raw, responses=True)
        return self._respond(cell, answer, fields, request.raw)

    # ------------------------------------------------------------ answering

    def _play(self, cell: CellState, method: str, rest: str, body: object) -> agents.Answer:
        """What to answer this request with, before it is put on the wire."""
        if method in ("HEAD", "GET"):
            if rest in ("/", "/api/hello"):  # the CLI's reachability probe is a HEAD here
                return wire.Plain({})
            if rest == "/v1/models":
                data = [{"type": "model", "id": m, "display_name": m} for m in agents.OFFLINE_MODELS]
                return wire.Plain({"data": data, "has_more": False})
            return wire.ApiError(404, "not_found_error", f"no such endpoint: {method} {rest}")
        if rest not in (_MESSAGES, _COUNT_TOKENS):
            return wire.ApiError(404, "not_found_error", f"no such endpoint: {method} {rest}")
        if not isinstance(body, dict):
            return wire.ApiError(400, "invalid_request_error", "request body is not a JSON object")
        model = body.get("model")
        served = agents.lookup(model) if isinstance(model, str) else None
        if served is None:
            return agents.unserved(model, body)
        counting = rest == _COUNT_TOKENS
        turn = agents.Turn(served.name, body, cell.cell_id, cell.script, self._memory, counting)
        answer = served.agent(turn)
        if not counting:
            self._hold(cell, answer, body, served.hold_s)
        return answer

    def _respond(
        self,
        cell: CellState,
        answer: agents.Answer,
        fields: dict[str, Any],
        raw: bytes,
        responses: bool = False,
    ) -> wire.Response | wire.Silence:
        """An answer on the wire: in the Messages API's form, or in the Responses API's
        (`responses`; the request's fields as Messages read them)."""
        if isinstance(answer, wire.ApiError):
            return offline_responses.error_response(answer) if responses else wire.error_response(answer)
        if isinstance(answer, wire.Plain):
            return wire.json_response(200, answer.payload)
        if isinstance(answer, wire.Fault) and answer.kind == "hang":
            return wire.Silence()
        reply = wire.with_tool_ids(answer.reply if isinstance(answer, wire.Fault) else answer, raw)
        usage = wire.usage(fields, reply, str(cell.script.workspace.parent))
        model = str(fields.get("model"))
        if responses:
            out = offline_responses.stream_response(model, reply, usage, "resp_" + wire.digest(raw))
            if isinstance(answer, wire.Fault):  # a broken stream: cut short, as on a network cut
                return wire.Response(200, out.content_type, out.parts[:2], None, complete=False, close=True)
            return out
        message = wire.message(model, reply, usage, "msg_" + wire.digest(raw))
        stream = bool(fields.get("stream"))
        if isinstance(answer, wire.Fault):
            if answer.kind == "cut":
                return wire.cut_response(message, stream)
            return wire.garbage_response(message, stream)
        return wire.stream_response(message) if stream else wire.json_response(200, message)

    def _log(self, cell: CellState, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self._lock:
            if cell.script.log_path is None:
                cell.log.append(record)  # with a log file, memory stays flat over long runs
                return
            cell.script.log_path.parent.mkdir(parents=True, exist_ok=True)
            with cell.script.log_path.open("a", encoding="utf-8") as out:
                out.write(line)

    def _hold(
        self, cell: CellState, answer: agents.Answer, body: dict[str, Any], hold_s: float | None
    ) -> None:
        """Hold the reply that ends a session until hold_s after the session began (the model's
        suffix, else the server's latency); the wait ends early when the server stops."""
        hold = hold_s if hold_s is not None else self.latency_s
        if not hold or not agents.is_main_loop(body):
            return
        with self._lock:
            if cell.first_at is None:
                cell.first_at = time.monotonic()
            began = cell.first_at
        ends = isinstance(answer, wire.Reply) and answer.stop_reason == "end_turn"
        if ends and self._httpd is not None:
            self._httpd.stopping.wait(max(0.0, began + hold - time.monotonic()))


# ---------------------------------------------------------------- HTTP


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, owner: OfflineServer) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.owner = owner
        self.stopping = threading.Event()
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One line, not socketserver's traceback: the cell's own record says what went wrong."""
        exc = sys.exc_info()[1]
        print(f"ponybench offline server: a request failed: {type(exc).__name__}: {exc}", file=sys.stderr)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def drop_connections(self) -> None:
        """Unblock handlers parked on keep-alive reads or hangs, so stop() returns promptly."""
        with self._open_lock:
            for sock in list(self._open):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


class _Handler(Handler):
    """Bytes in, bytes out: every decision is `OfflineServer.answer`'s (the per-cell request log
    is the record)."""

    server_version = "ponybench-offline/1"

    @property
    def _server(self) -> _HTTPServer:
        return cast(_HTTPServer, self.server)

    def _serve(self) -> None:
        request = Request(self.command, self.path, tuple(self.headers.items()), self.read_body() or b"")
        response = self._server.owner.answer(request)
        try:
            if isinstance(response, wire.Silence):
                self._hang()
            else:
                self._send(response)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client went away: nothing left to tell it

    def _send(self, response: wire.Response) -> None:
        if response.close:
            self.close_connection = True
        self.send_response(response.status, "Overloaded" if response.status == 529 else None)
        self.send_header("content-type", response.content_type)
        self.send_header("request-id", "req_" + os.urandom(12).hex())
        if response.length is None:
            self.send_header("transfer-encoding", "chunked")
            self.send_header("cache-control", "no-cache")
        else:
            self.send_header("content-length", str(response.length))
        self.end_headers()
        if self.command == "HEAD":
            return
        for part in response.parts:
            if response.length is None:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            else:
                self.wfile.write(part)
        if response.length is None and response.complete:
            self.wfile.write(b"0\r\n\r\n")

    def _hang(self) -> None:
        """Say nothing until the client leaves or the server stops; other cells keep going."""
        sock = cast(socket.socket, self.connection)
        while not self._server.stopping.wait(0.1):
            try:
                readable, _, _ = select.select([sock], [], [], 0)
                if readable and not sock.recv(1, socket.MSG_PEEK):
                    break
            except (OSError, ValueError):
                break
        self.close_connection = True
