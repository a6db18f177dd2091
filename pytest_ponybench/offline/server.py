"""A local model server that speaks the Anthropic Messages API, so the real claude CLI runs offline.

Point the CLI at ``ANTHROPIC_BASE_URL=<server.cell_url(cell_id)>`` with any non-empty
``ANTHROPIC_API_KEY``; ``--model`` (one of :data:`OFFLINE_MODELS`) picks the behaviour.

What claude 2.1.332 does, measured against a logging server (``-p``, stream-json, bypassPermissions):

- It keeps the base URL's path prefix: ``POST /cell/<id>/v1/messages?beta=true``, one per turn,
  always ``"stream": true`` and ``max_tokens`` 32000. No title, quota, summary or count_tokens
  requests in ``-p`` mode. Without ``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC`` it first sends
  ``HEAD /cell/<id>/api/hello`` (answered 200). Headers: ``x-api-key``, ``anthropic-version``,
  a long ``anthropic-beta``, ``X-Claude-Code-Session-Id``, ``User-Agent: claude-cli/2.1.332``.
- Body: model, messages, system (text blocks; ``--append-system-prompt`` lands there), tools,
  metadata, max_tokens, thinking, context_management, output_config, stream. ``messages`` has a
  ``role: "system"`` entry (the environment, "Primary working directory: <cwd>"): never assume
  user/assistant alternation.
- ``tools`` include ``Write {file_path, content}``, ``Edit {file_path, old_string, new_string,
  replace_all}`` and ``Read {file_path, offset, limit, pages, allow_large}``, absolute paths.
  Write creates parent directories (and writes outside the cwd under bypassPermissions). Edit
  and Write over a seeded file work WITHOUT a prior Read, although both tool descriptions say
  they fail; the scripted agents Read first anyway, in case a version enforces it.
- The stream the CLI needs: message_start (``message.usage``), content_block_start,
  content_block_delta (``text_delta`` / ``input_json_delta``), content_block_stop, message_delta
  (``stop_reason``, ``usage.output_tokens``), message_stop. stream-json prints one ``assistant``
  event per content block, all with the message's id and its message_start usage (per-turn
  context = input + cache read + cache creation): dedupe by ``message.id``. The result event
  sums the requests: input, cache creation and cache read from message_start, output from
  message_delta; ``total_cost_usd`` is priced even for unknown model names (stderr then says
  ``[claude-code:unrecognized_model]``). ``num_turns`` is not the request count: 5 requests,
  one of them with two parallel tool calls, gave 6; retries do not count.
- Faults, with ``CLAUDE_CODE_MAX_RETRIES=0``: every one ends in a result event with subtype
  "success", ``is_error: true``, ``terminal_reason: "api_error"``, exit code 1, in under a second
  (hang: ``API_TIMEOUT_MS`` plus ~0.7 s). ``api_error_status`` is the HTTP status, null for hang
  ("Request timed out"), cut ("Connection to the API was lost (ECONNRESET)") and garbage ("API
  returned an empty or malformed response"). A 400 is resent at once with beta features
  stripped (6 requests); a failed stream is retried once without streaming (``"stream":
  false``); a 404's message is replaced by "There's an issue with the selected model (<name>)".
  Garbage still reports the parsed message_start's tokens and cost. Allowed retries appear as
  ``system/api_retry`` events (attempt, retry_delay_ms, error_status).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import select
import socket
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, cast
from urllib.parse import quote, unquote, urlsplit

from pytest_ponybench._util import textfiles
from pytest_ponybench.core.graders.evidence import PATH_KEYS
from pytest_ponybench.core.judge import offline as offline_judge
from pytest_ponybench.offline import coin, escape

__all__ = [
    "CellScript",
    "ESCAPE_MODEL",
    "OFFLINE_MODELS",
    "OFFLINE_PREFIX",
    "OfflineServer",
    "Session",
    "is_offline",
    "is_served",
    "resolve_call",
    "split_hold",
]

OFFLINE_PREFIX = "offline-"

# Fault models that answer every messages request with this HTTP status and error type.
_HTTP_FAULTS: dict[str, tuple[int, str]] = {
    "offline-error-400": (400, "invalid_request_error"),
    "offline-error-401": (401, "authentication_error"),
    "offline-error-429": (429, "rate_limit_error"),
    "offline-error-500": (500, "api_error"),
    "offline-overloaded": (529, "overloaded_error"),
}
_SCRIPTED = ("offline-reference", "offline-flawed", "offline-idle")
# A hostile agent: tries to reach the harness from its cell, then writes the good reference.
ESCAPE_MODEL = "offline-escape"
_STREAM_FAULTS = ("offline-overloaded-once", "offline-hang", "offline-cut", "offline-garbage")
OFFLINE_MODELS: tuple[str, ...] = (
    _SCRIPTED
    + tuple(_HTTP_FAULTS)
    + _STREAM_FAULTS
    + (ESCAPE_MODEL,)
    + (coin.COIN_MODEL,)
    + (offline_judge.OFFLINE_JUDGE,)
)

# Weather and latency are data in the model's name, so a grid needs no extra setting:
# `offline-overloaded-for-<N>s` answers 529 for N seconds from this server's first request for
# it, then plays the reference; `<model>@<N>s` holds a session's last reply until N seconds
# after its first request, so every session lasts about N seconds, like a live one.
_STORM_RE = re.compile(r"^offline-overloaded-for-(\d+(?:\.\d+)?)s$")
_HOLD_RE = re.compile(r"^(offline-[A-Za-z0-9-]+)@(\d+(?:\.\d+)?)s$")


def split_hold(model: str) -> tuple[str, float | None]:
    """`offline-reference@20s` -> ("offline-reference", 20.0); other names come back as they are."""
    match = _HOLD_RE.match(model)
    return (match[1], float(match[2])) if match else (model, None)


def is_served(model: str) -> bool:
    """Whether this server plays the model (a hold suffix allowed)."""
    base, _ = split_hold(model)
    return base in OFFLINE_MODELS or bool(_STORM_RE.match(base))


# A request with less room than this is a side request (title, quota), not the agent loop.
_SIDE_MAX_TOKENS = 1024
_JSON_CHUNK = 512  # input_json_delta size; several deltas exercise the CLI's reassembly
_SECRET_HEADER_WORDS = ("key", "auth", "token", "cookie", "secret")
_PARTIAL_TEXT = "Let me look at the task and write the file it asks for."
_IDLE_TEXT = (
    "I won't edit files here; this is the approach, for you to apply where the task says.\n\n"
    "```python\n"
    "def unique(items: list[str]) -> list[str]:\n"
    '    """The items without repeats, first occurrence kept."""\n'
    "    return list(dict.fromkeys(items))\n"
    "```\n"
)


def is_offline(model: str) -> bool:
    """True for model names this server owns (known or not: unknown ones get an error)."""
    return model.startswith(OFFLINE_PREFIX)


@dataclass(frozen=True)
class Session:
    """What a scripted agent says and does besides writing its files (a reference's ref.toml):
    tool calls made first, one per turn, in order, with relative paths taken as the
    workspace's; and its final reply."""

    calls: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    reply: str | None = None


def resolve_call(tool: str, given: Mapping[str, Any], workspace: Path) -> tuple[str, dict[str, Any]]:
    """A declared call as the agent sends it: a relative path made absolute in the workspace."""
    out = dict(given)
    for key in PATH_KEYS:
        value = out.get(key)
        if isinstance(value, str) and not os.path.isabs(value):
            out[key] = os.path.normpath(workspace / value)
    return tool, out


@dataclass
class CellScript:
    """What the scripted agents of one cell write, and where."""

    workspace: Path
    good: dict[str, bytes]
    bad: dict[str, bytes]
    log_path: Path | None = None
    good_session: Session = field(default_factory=Session)
    bad_session: Session = field(default_factory=Session)


@dataclass
class _Cell:
    script: CellScript
    cell_id: str = ""
    log: list[dict[str, Any]] = field(default_factory=list)
    first_at: float | None = None  # monotonic time of its first agent-loop request (holds)


class _ApiError(Exception):
    """An Anthropic-style error answer."""

    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.status, self.kind, self.message = status, kind, message


# ---------------------------------------------------------------- replies and usage


@dataclass
class _Reply:
    content: list[dict[str, Any]]
    stop_reason: str
    describe: str  # one line for the request log


@dataclass
class _Json:
    payload: dict[str, Any]
    describe: str = "json"


# A reply to stream, a plain JSON answer, or a stream fault to play.
_Action = _Reply | _Json | Literal["hang", "cut", "garbage"]


def _text(text: str) -> _Reply:
    return _Reply([{"type": "text", "text": text}], "end_turn", f"text: {text[:60]}")


def _count(value: object, scratch: str = "") -> int:
    # About four characters per token is what the real tokenizer averages on code and prose.
    if not value:
        return 0
    text = json.dumps(value, ensure_ascii=False)
    # The cell's scratch folder (in the cwd and every path) is counted as one fixed name: its
    # length varies with the process id, and the same grid must cost the same in any run.
    return len(text.replace(scratch, "/cell") if scratch else text) // 4


def _usage(body: dict[str, Any], reply: _Reply, scratch: str = "") -> dict[str, int]:
    """Plausible, deterministic usage: the system prompt and tools are the cached prefix."""

    def count(value: object) -> int:
        return _count(value, scratch)

    prefix = count(body.get("system")) + count(body.get("tools"))
    messages = body.get("messages")
    messages = messages if isinstance(messages, list) else []
    later = any(isinstance(m, dict) and m.get("role") == "assistant" for m in messages)
    if not later:  # the first turn writes the cache
        read, created, fresh = 0, prefix, count(messages)
    else:  # later turns read the prefix and history, write the previous turn, pay for the new one
        read = prefix + count(messages[:-2])
        created, fresh = count(messages[-2:-1]), count(messages[-1:])
    return {
        "input_tokens": max(1, fresh),
        "cache_creation_input_tokens": created,
        "cache_read_input_tokens": read,
        "output_tokens": max(1, count(reply.content)),
    }


def _digest(raw: bytes, salt: str = "") -> str:
    return hashlib.sha256(raw + salt.encode()).hexdigest()[:24]


def _message(model: str, reply: _Reply, usage: dict[str, int], msg_id: str) -> dict[str, Any]:
    return {
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": reply.content,
        "stop_reason": reply.stop_reason,
        "stop_sequence": None,
        "usage": usage,
    }


def _sse_events(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The events the real API streams for a finished message; each is named by its type."""
    usage = message["usage"]
    # message_start carries the input side of usage, message_delta the final output_tokens.
    start = dict(message, content=[], stop_reason=None, usage=dict(usage, output_tokens=1))
    yield {"type": "message_start", "message": start}
    yield {"type": "ping"}
    for index, block in enumerate(message["content"]):
        is_text = block["type"] == "text"
        empty = {"type": "text", "text": ""} if is_text else dict(block, input={})
        yield {"type": "content_block_start", "index": index, "content_block": empty}
        # Several deltas per block, so the CLI's reassembly is exercised as with the real API.
        if is_text:
            half = len(block["text"]) // 2
            parts = [block["text"][:half], block["text"][half:]]
            deltas = [{"type": "text_delta", "text": part} for part in parts if part]
        else:
            raw = json.dumps(block["input"])
            deltas = [
                {"type": "input_json_delta", "partial_json": raw[at : at + _JSON_CHUNK]}
                for at in range(0, len(raw), _JSON_CHUNK)
            ]
        for delta in deltas:
            yield {"type": "content_block_delta", "index": index, "delta": delta}
        yield {"type": "content_block_stop", "index": index}
    stop = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    yield {"type": "message_delta", "delta": stop, "usage": {"output_tokens": usage["output_tokens"]}}
    yield {"type": "message_stop"}


# ---------------------------------------------------------------- scripted agents


def _blocks(messages: list[Any], role: str) -> Iterator[dict[str, Any]]:
    for message in messages:
        if isinstance(message, dict) and message.get("role") == role:
            content = message.get("content")
            if isinstance(content, list):
                yield from (b for b in content if isinstance(b, dict))


def _is_main_loop(body: dict[str, Any]) -> bool:
    max_tokens = body.get("max_tokens")
    roomy = not isinstance(max_tokens, int) or max_tokens >= _SIDE_MAX_TOKENS
    return bool(body.get("tools")) and roomy


def _declared_step(messages: list[Any], script: CellScript, session: Session) -> _Reply | None:
    """The session's next declared call, or None when all were made: the calls made so far are
    the conversation's tool calls that match the declared ones, in order."""
    calls = [resolve_call(tool, given, script.workspace) for tool, given in session.calls]
    made = 0
    for block in _blocks(messages, "assistant"):
        if made == len(calls) or block.get("type") != "tool_use":
            continue
        tool, given = calls[made]
        sent = block.get("input")
        if (
            block.get("name") == tool
            and isinstance(sent, dict)
            and all(sent.get(k) == v for k, v in given.items())
        ):
            made += 1
    return _tools([calls[made]]) if made < len(calls) else None


def _agent_step(
    body: dict[str, Any], script: CellScript, files: dict[str, bytes], session: Session | None = None
) -> _Reply:
    """The next step, derived only from the conversation and the disk, so a retry repeats it.

    First the session's declared tool calls, one per turn, then one turn of parallel Reads of
    every existing file to replace, then one file per turn:
    Write where it is missing (or empty, or CRLF, to keep its bytes exact), else Edit of the
    whole content. A file is done once a Write or Edit of it is in the conversation, failed or
    not, so the agent always ends, with the session's reply if it declares one. Contents are
    text: invalid UTF-8 is written as U+FFFD.
    """
    messages = body.get("messages")
    messages = messages if isinstance(messages, list) else []
    if session is not None and (declared := _declared_step(messages, script, session)) is not None:
        return declared
    failed = {
        b.get("tool_use_id")
        for b in _blocks(messages, "user")
        if b.get("type") == "tool_result" and b.get("is_error")
    }
    touched: dict[str, set[str]] = {}  # path -> tool names, "!" marking a failed call
    for call in _blocks(messages, "assistant"):
        given = call.get("input")
        if call.get("type") == "tool_use" and isinstance(given, dict):
            if isinstance(path := given.get("file_path"), str):
                mark = "!" if call.get("id") in failed else ""
                touched.setdefault(os.path.normpath(path), set()).add(f"{call.get('name')}{mark}")
    tools = body.get("tools")
    tool_names = {t.get("name") for t in tools if isinstance(t, dict)} if isinstance(tools, list) else set()
    wrote: list[str] = []
    broke: list[str] = []
    pending: list[tuple[str, str, bytes | None, bool]] = []  # rel, path, current, read
    for rel in sorted(files):
        path = os.path.normpath(script.workspace / rel)
        done = touched.get(path, set())
        if done & {"Write", "Edit", "Write!", "Edit!"}:
            (wrote if done & {"Write", "Edit"} else broke).append(rel)
            continue
        try:
            current: bytes | None = Path(path).read_bytes()
        except OSError:  # missing, or a directory in the way: Write reports that to the CLI
            current = None
        if current != files[rel]:
            pending.append((rel, path, current, "Read" in done or "Read!" in done))
    if not pending:
        if session is not None and session.reply is not None:
            return _text(session.reply)
        summary = f"Done: wrote {', '.join(wrote)}." if wrote else "Done: nothing needed changing."
        return _text(summary + (f" Failed: {', '.join(broke)}." if broke else ""))
    if not {"Write", "Edit"} <= tool_names:
        return _text(f"I cannot write {pending[0][0]}: the Write and Edit tools are not available.")
    unread = [path for _, path, current, read in pending if current is not None and not read]
    if unread and "Read" in tool_names:
        return _tools([("Read", {"file_path": path}) for path in unread])
    rel, path, current, _ = pending[0]
    new = files[rel].decode("utf-8", errors="replace")
    try:
        old = (current or b"").decode("utf-8")
    except UnicodeDecodeError:
        old = ""
    if not old or "\r" in old + new:  # Edit cannot anchor on nothing
        return _tools([("Write", {"file_path": path, "content": new})])
    return _tools([("Edit", {"file_path": path, "old_string": old, "new_string": new})])


def _tools(calls: list[tuple[str, dict[str, Any]]]) -> _Reply:
    # Ids are filled in from the request's digest when the reply is sent.
    blocks = [{"type": "tool_use", "id": "", "name": name, "input": given} for name, given in calls]
    where = ("file_path", "path", "pattern", "skill")
    describe = "; ".join(
        f"{name} {next((str(given[k]) for k in where if given.get(k)), '')}" for name, given in calls
    )
    return _Reply(blocks, "tool_use", describe)


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


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ponybench-offline/1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the per-cell request log is the record; stderr noise would reach pytest output

    @property
    def _server(self) -> _HTTPServer:
        return cast(_HTTPServer, self.server)

    def do_HEAD(self) -> None:
        self._serve()

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def _read_body(self) -> bytes:
        if self.headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16):
                parts.append(self.rfile.read(size))
                self.rfile.readline()
            while self.rfile.readline().strip():
                pass
            return b"".join(parts)
        return self.rfile.read(int(self.headers.get("content-length") or 0))

    def _serve(self) -> None:
        raw = self._read_body()
        try:
            self._dispatch(raw)
        except _ApiError as err:
            self._send_error(err)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client went away: nothing left to tell it

    def _dispatch(self, raw: bytes) -> None:
        url = urlsplit(self.path)
        parts = url.path.split("/", 3)
        if len(parts) < 3 or parts[1] != "cell" or not parts[2]:
            raise _ApiError(404, "not_found_error", f"no /cell/<id>/ prefix in path {url.path!r}")
        cell_id, rest = unquote(parts[2]), "/" + (parts[3] if len(parts) > 3 else "")
        owner = self._server.owner
        cell = owner._cell(cell_id)
        try:
            body: object = json.loads(raw) if raw else None
        except ValueError:
            body = None
        fields = body if isinstance(body, dict) else {}
        record: dict[str, Any] = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "cell": cell_id,
            "method": self.command,
            "path": self.path,
            "model": fields.get("model"),
            "stream": bool(fields.get("stream")),
            "headers": {
                k: v
                for k, v in self.headers.items()
                if not any(word in k.lower() for word in _SECRET_HEADER_WORDS)
            },
            "body": body if body is not None else raw.decode("utf-8", errors="replace"),
        }
        try:
            action = self._act(cell, rest, body)
        except _ApiError as err:
            record["reply"] = f"error {err.status} {err.kind}"
            owner._log(cell, record)
            raise
        except Exception as exc:  # a bug here must read as one, not as a dropped connection
            record["reply"] = f"error 500 {exc!r}"
            owner._log(cell, record)
            raise _ApiError(500, "api_error", f"ponybench offline server bug: {exc!r}") from exc
        record["reply"] = action if isinstance(action, str) else action.describe
        owner._log(cell, record)
        if isinstance(action, _Json):
            return self._send_json(200, action.payload)
        if action == "hang":
            return self._hang()
        reply = _text(_PARTIAL_TEXT) if isinstance(action, str) else action
        for n, block in enumerate(reply.content):
            if block["type"] == "tool_use":
                block["id"] = "toolu_" + _digest(raw, str(n))
        usage = _usage(fields, reply, str(cell.script.workspace.parent))
        message = _message(str(fields.get("model")), reply, usage, "msg_" + _digest(raw))
        if action == "cut":
            return self._send_cut(message, record["stream"])
        if action == "garbage":
            return self._send_garbage(message, record["stream"])
        if record["stream"]:
            return self._send_sse(message)
        return self._send_json(200, message)

    def _act(self, cell: _Cell, rest: str, body: object) -> _Action:
        """What to answer this request with; raises _ApiError for an error answer."""
        if self.command in ("HEAD", "GET"):
            if rest in ("/", "/api/hello"):  # the CLI's reachability probe is a HEAD here
                return _Json({})
            if rest == "/v1/models":
                data = [{"type": "model", "id": m, "display_name": m} for m in OFFLINE_MODELS]
                return _Json({"data": data, "has_more": False})
            raise _ApiError(404, "not_found_error", f"no such endpoint: {self.command} {rest}")
        if rest not in ("/v1/messages", "/v1/messages/count_tokens"):
            raise _ApiError(404, "not_found_error", f"no such endpoint: POST {rest}")
        if not isinstance(body, dict):
            raise _ApiError(400, "invalid_request_error", "request body is not a JSON object")
        model = body.get("model")
        if not isinstance(model, str) or not is_served(model):
            offline = isinstance(model, str) and is_offline(model)
            if not offline and not _is_main_loop(body):
                return _text("OK.")  # a side request under the CLI's small model
            # A 404 makes the CLI print its own "issue with the selected model (<name>)",
            # right for a real model name; for an unknown offline-* name our list must show.
            raise _ApiError(
                400 if offline else 404,
                "invalid_request_error" if offline else "not_found_error",
                f"model {model!r} is not served by the ponybench offline server; "
                f"known models: {', '.join(OFFLINE_MODELS)}",
            )
        base, hold_s = split_hold(model)
        if rest == "/v1/messages/count_tokens":
            if base in _HTTP_FAULTS:  # the pre-flight's credential check meets the fault too
                status, kind = _HTTP_FAULTS[base]
                raise _ApiError(status, kind, f"{model}: scripted HTTP {status} ({kind})")
            counted = sum(_count(body.get(k)) for k in ("system", "tools", "messages"))
            return _Json({"input_tokens": max(1, counted)}, "count_tokens")
        action = self._server.owner._decide(cell, base, body)
        self._server.owner._hold(cell, action, body, hold_s)
        return action

    # ------------------------------------------------------------ senders

    def _start(self, status: int, content_type: str, length: int | None) -> None:
        self.send_response(status, "Overloaded" if status == 529 else None)
        self.send_header("content-type", content_type)
        self.send_header("request-id", "req_" + os.urandom(12).hex())
        if length is None:
            self.send_header("transfer-encoding", "chunked")
            self.send_header("cache-control", "no-cache")
        else:
            self.send_header("content-length", str(length))
        self.end_headers()

    def _send_json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self._start(status, "application/json", len(data))
        if self.command != "HEAD":
            self.wfile.write(data)

    def _send_error(self, err: _ApiError) -> None:
        payload = {"type": "error", "error": {"type": err.kind, "message": err.message}}
        self._send_json(err.status, payload)

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def _event(self, data: dict[str, Any]) -> None:
        self._chunk(f"event: {data['type']}\ndata: {json.dumps(data)}\n\n".encode())

    def _send_sse(self, message: dict[str, Any]) -> None:
        self._start(200, "text/event-stream", None)
        for event in _sse_events(message):
            self._event(event)
        self.wfile.write(b"0\r\n\r\n")

    def _send_cut(self, message: dict[str, Any], stream: bool) -> None:
        # Stop mid-message without the chunked terminator (or short of content-length): the
        # client sees a connection lost, as on a real network cut.
        self.close_connection = True
        if not stream:
            whole = json.dumps(message).encode()
            self._start(200, "application/json", len(whole))
            self.wfile.write(whole[: len(whole) // 2])
            return
        self._start(200, "text/event-stream", None)
        for event in _sse_events(message):
            self._event(event)
            if event["type"] == "content_block_delta":
                break

    def _send_garbage(self, message: dict[str, Any], stream: bool) -> None:
        self.close_connection = True
        if not stream:
            junk = b'{"id": "msg_garbage", "type": "message", "content": [oops'
            self._start(200, "application/json", len(junk))
            self.wfile.write(junk)
            return
        self._start(200, "text/event-stream", None)
        self._event(next(_sse_events(message)))
        self._chunk(b'event: content_block_start\ndata: {"type": "content_block_start", ind\n\n')
        self._chunk(b"event: content_block_delta\ndata: not json at all }}}\n\n")
        self._chunk(b"\xff\xfe binary noise \x00\n\n")
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


# ---------------------------------------------------------------- the server


class OfflineServer:
    """One per process; serves many cells at once, told apart by the /cell/<id> path prefix."""

    def __init__(self, latency_s: float = 0.0) -> None:
        self._cells: dict[str, _Cell] = {}
        self._overloaded_once: set[str] = set()
        self.latency_s = latency_s  # a session's minimum length for every model (see _hold)
        self._storm_began: dict[str, float] = {}
        self._lock = threading.Lock()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._httpd is not None:
            return
        self._httpd = _HTTPServer(self)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.1},
            name="ponybench-offline",
            daemon=True,
        )
        self._thread.start()

    def stop(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        httpd.stopping.set()
        httpd.drop_connections()
        httpd.shutdown()
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> OfflineServer:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

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
            self._cells[cell_id] = _Cell(script, cell_id)

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

    # ------------------------------------------------------------ used by the handler

    def _cell(self, cell_id: str) -> _Cell:
        with self._lock:
            cell = self._cells.get(cell_id)
        if cell is None:
            # Not 404: the CLI replaces a 404's message with a generic "issue with the model".
            raise _ApiError(
                400,
                "invalid_request_error",
                f"cell {cell_id!r} is not registered with the ponybench offline server",
            )
        return cell

    def _log(self, cell: _Cell, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self._lock:
            if cell.script.log_path is None:
                cell.log.append(record)  # with a log file, memory stays flat over long runs
                return
            cell.script.log_path.parent.mkdir(parents=True, exist_ok=True)
            with cell.script.log_path.open("a", encoding="utf-8") as out:
                out.write(line)

    def _hold(self, cell: _Cell, action: _Action, body: dict[str, Any], hold_s: float | None) -> None:
        """Hold the reply that ends a session until hold_s after the session began (the model's
        suffix, else the server's latency); the wait ends early when the server stops."""
        hold = hold_s if hold_s is not None else self.latency_s
        if not hold or not _is_main_loop(body):
            return
        with self._lock:
            if cell.first_at is None:
                cell.first_at = time.monotonic()
            began = cell.first_at
        if isinstance(action, _Reply) and action.stop_reason == "end_turn" and self._httpd is not None:
            self._httpd.stopping.wait(max(0.0, began + hold - time.monotonic()))

    def _decide(self, cell: _Cell, model: str, body: dict[str, Any]) -> _Action:
        """The answer of a known offline model to a messages request; _ApiError for faults."""
        storm = _STORM_RE.match(model)
        if storm:
            with self._lock:
                began = self._storm_began.setdefault(model, time.monotonic())
            if time.monotonic() - began < float(storm[1]):
                raise _ApiError(529, "overloaded_error", f"{model}: scripted overload, {storm[1]}s long")
            model = "offline-reference"
        if model in _HTTP_FAULTS:
            status, kind = _HTTP_FAULTS[model]
            raise _ApiError(status, kind, f"{model}: scripted HTTP {status} ({kind})")
        if model == "offline-hang":
            return "hang"
        if model == "offline-cut":
            return "cut"
        if model == "offline-garbage":
            return "garbage"
        if model == offline_judge.OFFLINE_JUDGE:  # a judge call: no tools, one answer
            return _text(offline_judge.answer(body))
        if not _is_main_loop(body):
            return _text("OK.")
        if model == "offline-idle":
            return _text(_IDLE_TEXT)
        if model == "offline-overloaded-once":
            # Once per cell id, across registrations: a harness retry of the cell is the
            # "then" of "529 once, then a normal session".
            with self._lock:
                first = cell.cell_id not in self._overloaded_once
                self._overloaded_once.add(cell.cell_id)
            if first:
                raise _ApiError(529, "overloaded_error", f"{model}: scripted first-request 529")
        if model == ESCAPE_MODEL and (attacks := escape.next_calls(body, cell.script.workspace)):
            return _tools(attacks)
        if model == coin.COIN_MODEL:
            # Directed by what reached it: a plugin skill first, then good or bad by the cell's coin.
            if (call := coin.skill_call(body)) is not None:
                return _Reply([call], "tool_use", f"Skill {call['input']['skill']}")
            good = coin.draws_good(cell.cell_id, coin.directed_good(body))
            return _agent_step(body, cell.script, cell.script.good if good else cell.script.bad)
        flawed = model == "offline-flawed"
        files = cell.script.bad if flawed else cell.script.good
        return _agent_step(
            body, cell.script, files, cell.script.bad_session if flawed else cell.script.good_session
        )
