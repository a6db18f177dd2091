"""An Anthropic Messages answer read as it streams past: its usage, and what the model said.

The gateway forwards the bytes untouched and feeds them here on the way: `Reading` keeps the
usage (message_start's input side, message_delta's final output), the content blocks the model
sent (text, thinking, tool_use with its input reassembled from input_json_delta), the stop
reason and an error event, whether the answer is server-sent events or one JSON body. What it
keeps of the content is capped (`KEEP_CHARS`); the usage is read whatever the size.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pytest_ponybench.core.transcript import Usage

__all__ = ["Answer", "FrameReading", "KEEP_CHARS", "MAX_BODY", "MAX_FRAME", "Reading", "as_int", "usage_of"]

KEEP_CHARS = 1_000_000  # of the content kept for the log and the tool-call cross-check
MAX_FRAME = 8_000_000  # an event longer than this is not parsed (its bytes still pass)
MAX_BODY = 32_000_000  # a JSON answer longer than this is not parsed


def as_int(value: Any) -> int:
    """A number of the wire as an int; anything else (a bool, a string, null) 0."""
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def usage_of(value: Any, base: Usage | None = None) -> Usage:
    """Usage from an API `usage` object; a field it does not give keeps base's."""
    given: dict[str, Any] = value if isinstance(value, dict) else {}
    old = base or Usage()

    def pick(key: str, was: int) -> int:
        return as_int(given[key]) if key in given and given[key] is not None else was

    return Usage(
        input_tokens=pick("input_tokens", old.input_tokens),
        output_tokens=pick("output_tokens", old.output_tokens),
        cache_read_tokens=pick("cache_read_input_tokens", old.cache_read_tokens),
        cache_write_tokens=pick("cache_creation_input_tokens", old.cache_write_tokens),
    )


@dataclass
class Answer:
    """What one answer said, as far as it came."""

    usage: Usage = field(default_factory=Usage)
    content: list[dict[str, Any]] = field(default_factory=list)
    stop_reason: str | None = None
    model: str | None = None
    error: dict[str, Any] | None = None
    complete: bool = False  # message_stop seen, or a whole JSON message parsed
    cut: bool = False  # content beyond KEEP_CHARS was not kept

    @property
    def tool_use_ids(self) -> list[str]:
        return [str(b.get("id")) for b in self.content if b.get("type") == "tool_use" and b.get("id")]


class FrameReading:
    """Feed an answer's body bytes as they pass; `finish` says what it held. The wire's reader
    says what one server-sent event (`_event`) and one whole JSON body (`_whole`) hold; the
    framing, the caps and what is skipped are the same for every wire."""

    def __init__(self, content_type: str) -> None:
        self.sse = "event-stream" in content_type.lower()
        self.answer = Answer()
        self._buffer = bytearray()
        self._skipping = False  # inside an event too long to parse: drop to its end
        self._kept = 0

    def _event(self, event: dict[str, Any]) -> None:
        raise NotImplementedError

    def _whole(self, body: dict[str, Any]) -> None:
        raise NotImplementedError

    def _frame(self, frame: bytes) -> None:
        """One server-sent event: its data lines as one JSON object, else nothing."""
        data = [line[5:].strip() for line in frame.split(b"\n") if line.startswith(b"data:")]
        if not data:
            return
        try:
            event = json.loads(b"\n".join(data))
        except (ValueError, RecursionError):
            return
        if isinstance(event, dict):
            self._event(event)

    def _keep(self, block: dict[str, Any], index: int | None = None) -> None:
        """A content block kept for the log, while the cap allows (`_index`: the wire's own index,
        else its place)."""
        size = len(json.dumps(block, default=str))
        if self._kept + size > KEEP_CHARS:
            self.answer.cut = True
            return
        self._kept += size
        block["_index"] = len(self.answer.content) if index is None else index
        self.answer.content.append(block)

    def feed(self, data: bytes) -> None:
        if not self.sse:
            if len(self._buffer) + len(data) <= MAX_BODY:
                self._buffer += data
            else:
                self._skipping = True
            return
        self._buffer += data
        while True:
            end, sep = _frame_end(self._buffer)
            if end < 0:
                if len(self._buffer) > MAX_FRAME:
                    self._skipping = True
                    del self._buffer[: len(self._buffer) - 4]  # keep a delimiter's worth
                return
            frame = bytes(self._buffer[:end])
            del self._buffer[: end + sep]
            if self._skipping:
                self._skipping = False
                continue
            self._frame(frame)

    def finish(self) -> Answer:
        if not self.sse and not self._skipping and self._buffer:
            try:
                message = json.loads(bytes(self._buffer))
            except (ValueError, RecursionError):
                message = None
            if isinstance(message, dict):
                self._whole(message)
        elif self.sse and self._buffer.strip() and not self._skipping:
            self._frame(bytes(self._buffer))
        self._buffer.clear()
        return self.answer


class Reading(FrameReading):
    """The Messages API's answer (Claude Code's wire, and OpenCode's and Copilot CLI's)."""

    def __init__(self, content_type: str) -> None:
        super().__init__(content_type)
        self._partial: dict[int, list[str]] = {}  # a tool_use's input_json_delta pieces

    def _whole(self, body: dict[str, Any]) -> None:
        self._message(body)

    # ------------------------------------------------------------ events

    def _message(self, message: dict[str, Any]) -> None:
        """A whole JSON answer: a message, or an error."""
        if message.get("type") == "error":
            self.answer.error = message.get("error") if isinstance(message.get("error"), dict) else message
            return
        self.answer.usage = usage_of(message.get("usage"))
        self.answer.model = message.get("model") if isinstance(message.get("model"), str) else None
        stop = message.get("stop_reason")
        self.answer.stop_reason = stop if isinstance(stop, str) else None
        for block in message.get("content") or []:
            if isinstance(block, dict):
                self._keep(dict(block))
        self.answer.complete = True

    def _event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        answer = self.answer
        if kind == "message_start" and isinstance(event.get("message"), dict):
            message = event["message"]
            answer.usage = usage_of(message.get("usage"))
            answer.model = message.get("model") if isinstance(message.get("model"), str) else None
        elif kind == "content_block_start" and isinstance(event.get("content_block"), dict):
            index = as_int(event.get("index"))
            block = dict(event["content_block"])
            if block.get("type") == "tool_use":
                self._partial[index] = []
            self._keep(block, index)
        elif kind == "content_block_delta" and isinstance(event.get("delta"), dict):
            self._delta(as_int(event.get("index")), event["delta"])
        elif kind == "content_block_stop":
            self._close(as_int(event.get("index")))
        elif kind == "message_delta":
            answer.usage = usage_of(event.get("usage"), answer.usage)
            delta = event.get("delta")
            if isinstance(delta, dict) and isinstance(delta.get("stop_reason"), str):
                answer.stop_reason = delta["stop_reason"]
        elif kind == "message_stop":
            answer.complete = True
        elif kind == "error":
            answer.error = event.get("error") if isinstance(event.get("error"), dict) else event

    def _block(self, index: int) -> dict[str, Any] | None:
        return next((b for b in reversed(self.answer.content) if b.get("_index") == index), None)

    def _delta(self, index: int, delta: dict[str, Any]) -> None:
        block = self._block(index)
        if block is None:
            return
        piece = delta.get("text") or delta.get("thinking") or delta.get("partial_json") or ""
        if not isinstance(piece, str) or self._kept + len(piece) > KEEP_CHARS:
            self.answer.cut = self.answer.cut or bool(piece)
            return
        self._kept += len(piece)
        kind = delta.get("type")
        if kind == "text_delta":
            block["text"] = str(block.get("text") or "") + piece
        elif kind == "thinking_delta":
            block["thinking"] = str(block.get("thinking") or "") + piece
        elif kind == "input_json_delta" and index in self._partial:
            self._partial[index].append(piece)

    def _close(self, index: int) -> None:
        block = self._block(index)
        pieces = self._partial.pop(index, None)
        if block is None or pieces is None:
            return
        raw = "".join(pieces)
        try:
            block["input"] = json.loads(raw) if raw else block.get("input", {})
        except (ValueError, RecursionError):
            block["input"] = raw


def _frame_end(buffer: bytearray) -> tuple[int, int]:
    """Where the first event of buffer ends, and its delimiter's length; (-1, 0): not yet."""
    lf, crlf = buffer.find(b"\n\n"), buffer.find(b"\r\n\r\n")
    if crlf >= 0 and (lf < 0 or crlf < lf):
        return crlf, 4
    return (lf, 2) if lf >= 0 else (-1, 0)
