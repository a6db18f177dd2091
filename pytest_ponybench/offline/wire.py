"""The Anthropic Messages wire format as the offline server speaks it: replies, usage, events, errors.

Pure functions and small values; no model names, no cells, no sockets. What claude 2.1.332 sends
and needs, measured against a logging server (``-p``, stream-json, bypassPermissions):

- It keeps the base URL's path prefix: ``POST /cell/<id>/v1/messages?beta=true``, one per turn,
  always ``"stream": true`` and ``max_tokens`` 32000. No title, quota, summary or count_tokens
  requests in ``-p`` mode. Without ``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC`` it first sends
  ``HEAD /cell/<id>/api/hello`` (answered 200). Headers: ``x-api-key``, ``anthropic-version``,
  a long ``anthropic-beta``, ``X-Claude-Code-Session-Id``, ``User-Agent: claude-cli/2.1.332``.
- Body: model, messages, system (text blocks; ``--append-system-prompt`` lands there), tools,
  metadata, max_tokens, thinking, context_management, output_config, stream. ``messages`` has a
  ``role: "system"`` entry (the environment, "Primary working directory: <cwd>"): never assume
  user/assistant alternation.
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
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

__all__ = [
    "ApiError",
    "Fault",
    "Plain",
    "Reply",
    "Response",
    "Silence",
    "blocks",
    "count_tokens",
    "counted",
    "cut_response",
    "digest",
    "error_response",
    "event_frame",
    "garbage_response",
    "json_response",
    "message",
    "since_prompt",
    "sse_events",
    "stream_response",
    "text",
    "tools",
    "usage",
    "with_tool_ids",
]

_JSON_CHUNK = 512  # input_json_delta size; several deltas exercise the CLI's reassembly


# ---------------------------------------------------------------- what an answer says


@dataclass(frozen=True)
class Reply:
    """An assistant message's content, before usage and ids are put on it."""

    content: list[dict[str, Any]]
    stop_reason: str
    describe: str  # one line for the request log


@dataclass(frozen=True)
class Plain:
    """A plain JSON answer (the reachability probe, the model list, a token count)."""

    payload: dict[str, Any]
    describe: str = "json"


@dataclass(frozen=True)
class Fault:
    """A broken answer: ``hang`` says nothing, ``cut`` stops mid-message, ``garbage`` sends junk
    after a valid start; ``reply`` is what the broken message begins to say."""

    kind: Literal["hang", "cut", "garbage"]
    reply: Reply

    @property
    def describe(self) -> str:
        return self.kind


@dataclass(frozen=True)
class ApiError:
    """An Anthropic-style error answer."""

    status: int
    kind: str
    message: str

    @property
    def describe(self) -> str:
        return f"error {self.status} {self.kind}"

    def payload(self) -> dict[str, Any]:
        return {"type": "error", "error": {"type": self.kind, "message": self.message}}


def text(words: str) -> Reply:
    return Reply([{"type": "text", "text": words}], "end_turn", f"text: {words[:60]}")


def tools(calls: list[tuple[str, dict[str, Any]]]) -> Reply:
    """One turn of tool calls; their ids are filled in from the request when sent (`with_tool_ids`)."""
    content = [{"type": "tool_use", "id": "", "name": name, "input": given} for name, given in calls]
    where = ("file_path", "path", "pattern", "skill")
    describe = "; ".join(
        f"{name} {next((str(given[k]) for k in where if given.get(k)), '')}" for name, given in calls
    )
    return Reply(content, "tool_use", describe)


def blocks(messages: list[Any], role: str) -> Iterator[dict[str, Any]]:
    """The content blocks of the conversation's messages with this role."""
    for message in messages:
        if isinstance(message, dict) and message.get("role") == role:
            content = message.get("content")
            if isinstance(content, list):
                yield from (b for b in content if isinstance(b, dict))


def since_prompt(messages: list[Any], prompt: str | None) -> list[Any]:
    """The conversation from the last user message that carries `prompt` as a text (the turn
    being played: a history and earlier turns before it are left out); all of it when none does."""
    if prompt is None:
        return messages
    want = prompt.strip()
    for at in range(len(messages) - 1, -1, -1):
        message = messages[at]
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            texts = [content]
        else:
            texts = [str(b.get("text")) for b in blocks([message], "user") if b.get("type") == "text"]
        if any(t.strip() == want for t in texts):
            return messages[at:]
    return messages


# ---------------------------------------------------------------- tokens, ids, messages


def count_tokens(value: object, scratch: str = "") -> int:
    # About four characters per token is what the real tokenizer averages on code and prose.
    if not value:
        return 0
    dumped = json.dumps(value, ensure_ascii=False)
    # The cell's scratch folder (in the cwd and every path) is counted as one fixed name: its
    # length varies with the process id, and the same grid must cost the same in any run.
    return len(dumped.replace(scratch, "/cell") if scratch else dumped) // 4


def counted(body: dict[str, Any]) -> Plain:
    """The answer of the count_tokens endpoint."""
    tokens = sum(count_tokens(body.get(k)) for k in ("system", "tools", "messages"))
    return Plain({"input_tokens": max(1, tokens)}, "count_tokens")


def usage(body: dict[str, Any], reply: Reply, scratch: str = "") -> dict[str, int]:
    """Plausible, deterministic usage: the system prompt and tools are the cached prefix."""

    def count(value: object) -> int:
        return count_tokens(value, scratch)

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


def digest(raw: bytes, salt: str = "") -> str:
    return hashlib.sha256(raw + salt.encode()).hexdigest()[:24]


def with_tool_ids(reply: Reply, raw: bytes) -> Reply:
    """The reply with each tool call's id taken from the request, so a retry repeats it."""
    content = [
        dict(block, id="toolu_" + digest(raw, str(n))) if block["type"] == "tool_use" else block
        for n, block in enumerate(reply.content)
    ]
    return replace(reply, content=content)


def message(model: str, reply: Reply, usage: dict[str, int], msg_id: str) -> dict[str, Any]:
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


def sse_events(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
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


def event_frame(event: dict[str, Any]) -> bytes:
    return f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode()


# ---------------------------------------------------------------- what goes on the wire


@dataclass(frozen=True)
class Response:
    """An HTTP answer as bytes: the status, then the body's parts."""

    status: int
    content_type: str
    parts: tuple[bytes, ...]
    length: int | None  # content-length; None: chunked, one chunk per part
    complete: bool = True  # chunked: the terminating chunk ends it
    close: bool = False  # the connection closes after it (a broken answer)


@dataclass(frozen=True)
class Silence:
    """No answer at all: the connection stays open and says nothing (a hung API)."""


_JSON = "application/json"
_SSE = "text/event-stream"


def json_response(status: int, payload: dict[str, Any]) -> Response:
    data = json.dumps(payload).encode()
    return Response(status, _JSON, (data,), len(data))


def error_response(err: ApiError) -> Response:
    return json_response(err.status, err.payload())


def stream_response(message: dict[str, Any]) -> Response:
    return Response(200, _SSE, tuple(event_frame(e) for e in sse_events(message)), None)


def cut_response(message: dict[str, Any], stream: bool) -> Response:
    """Stop mid-message without the chunked terminator (or short of content-length): the client
    sees a connection lost, as on a real network cut."""
    if not stream:
        whole = json.dumps(message).encode()
        return Response(200, _JSON, (whole[: len(whole) // 2],), len(whole), close=True)
    frames: list[bytes] = []
    for event in sse_events(message):
        frames.append(event_frame(event))
        if event["type"] == "content_block_delta":
            break
    return Response(200, _SSE, tuple(frames), None, complete=False, close=True)


def garbage_response(message: dict[str, Any], stream: bool) -> Response:
    """A valid start (so the message's tokens are still reported), then junk."""
    if not stream:
        junk = b'{"id": "msg_garbage", "type": "message", "content": [oops'
        return Response(200, _JSON, (junk,), len(junk), close=True)
    frames = (
        event_frame(next(sse_events(message))),
        b'event: content_block_start\ndata: {"type": "content_block_start", ind\n\n',
        b"event: content_block_delta\ndata: not json at all }}}\n\n",
        b"\xff\xfe binary noise \x00\n\n",
    )
    return Response(200, _SSE, frames, None, close=True)
