"""An OpenAI Responses answer read as it streams past (Codex's wire): its usage, and what the
model said, in the shape `anthropic.Answer` keeps.

Server-sent events by type: `response.output_item.done` carries each whole item (a `message`
with `output_text` parts, a `custom_tool_call` with its `input`, a `function_call` with its
`arguments`, each tool call with its `call_id`), `response.completed` the usage (input tokens
with the cached share in `input_tokens_details.cached_tokens`, output tokens), `error` and
`response.failed` an error. A JSON body (`stream: false`) is the response object itself. The
usage is kept as Usage(input = input - cached, cache read = cached): the API writes no cache.
"""

from __future__ import annotations

import json
from typing import Any

from pytest_ponybench.core.transcript import Usage
from pytest_ponybench.gateway.anthropic import KEEP_CHARS, FrameReading

__all__ = ["ResponsesReading", "usage_of"]


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def usage_of(value: Any) -> Usage:
    given: dict[str, Any] = value if isinstance(value, dict) else {}
    details = given.get("input_tokens_details")
    cached = _int(details.get("cached_tokens")) if isinstance(details, dict) else 0
    total = _int(given.get("input_tokens"))
    return Usage(
        input_tokens=max(0, total - cached),
        output_tokens=_int(given.get("output_tokens")),
        cache_read_tokens=cached,
        cache_write_tokens=0,
    )


def _block(item: dict[str, Any]) -> dict[str, Any] | None:
    """An output item as the content block the log and the tool-call cross-check read."""
    kind = item.get("type")
    if kind == "message":
        parts = item.get("content")
        text = (
            "".join(str(p.get("text", "")) for p in parts if isinstance(p, dict))
            if isinstance(parts, list)
            else ""
        )
        return {"type": "text", "text": text}
    if kind == "custom_tool_call":
        return {
            "type": "tool_use",
            "id": str(item.get("call_id") or ""),
            "name": item.get("name"),
            "input": item.get("input"),
        }
    if kind == "function_call":
        try:
            given = json.loads(str(item.get("arguments") or "{}"))
        except ValueError:
            given = item.get("arguments")
        return {
            "type": "tool_use",
            "id": str(item.get("call_id") or ""),
            "name": item.get("name"),
            "input": given,
        }
    if kind == "reasoning":
        summary = item.get("summary")
        text = (
            " ".join(str(s.get("text", "")) for s in summary if isinstance(s, dict))
            if isinstance(summary, list)
            else ""
        )
        return {"type": "thinking", "thinking": text}
    return None


class ResponsesReading(FrameReading):
    """The Responses API's answer (Codex's wire)."""

    def _whole(self, body: dict[str, Any]) -> None:
        self._response(body)

    def _event(self, frame: bytes) -> None:
        data = [line[5:].strip() for line in frame.split(b"\n") if line.startswith(b"data:")]
        if not data:
            return
        try:
            event = json.loads(b"\n".join(data))
        except (ValueError, RecursionError):
            return
        if not isinstance(event, dict):
            return
        kind = event.get("type")
        if kind == "response.output_item.done" and isinstance(event.get("item"), dict):
            self._keep(event["item"])
        elif kind in ("response.completed", "response.incomplete") and isinstance(
            event.get("response"), dict
        ):
            self._finished(event["response"])
        elif kind == "response.failed" and isinstance(event.get("response"), dict):
            error = event["response"].get("error")
            self.answer.error = error if isinstance(error, dict) else {"message": str(error)}
        elif kind == "error":
            self.answer.error = event.get("error") if isinstance(event.get("error"), dict) else event
        elif kind == "response.created" and isinstance(event.get("response"), dict):
            model = event["response"].get("model")
            self.answer.model = model if isinstance(model, str) else None

    def _response(self, body: dict[str, Any]) -> None:
        """A whole JSON answer: a response object, or an error."""
        if isinstance(body.get("error"), dict) and "output" not in body:
            self.answer.error = body["error"]
            return
        for item in body.get("output") or []:
            if isinstance(item, dict):
                self._keep(item)
        self._finished(body)

    def _finished(self, response: dict[str, Any]) -> None:
        self.answer.usage = usage_of(response.get("usage"))
        status = response.get("status")
        calls = any(b.get("type") == "tool_use" for b in self.answer.content)
        self.answer.stop_reason = "tool_use" if calls else (str(status) if isinstance(status, str) else None)
        self.answer.complete = True

    def _keep(self, item: dict[str, Any]) -> None:
        block = _block(item)
        if block is None:
            return
        size = len(json.dumps(block, default=str))
        if self._kept + size > KEEP_CHARS:
            self.answer.cut = True
            return
        self._kept += size
        self.answer.content.append({**block, "_index": len(self.answer.content)})
