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
from pytest_ponybench.gateway.anthropic import FrameReading, as_int

__all__ = ["ResponsesReading", "usage_of"]


def usage_of(value: Any) -> Usage:
    given: dict[str, Any] = value if isinstance(value, dict) else {}
    details = given.get("input_tokens_details")
    cached = as_int(details.get("cached_tokens")) if isinstance(details, dict) else 0
    total = as_int(given.get("input_tokens"))
    return Usage(
        input_tokens=max(0, total - cached),
        output_tokens=as_int(given.get("output_tokens")),
        cache_read_tokens=cached,
        cache_write_tokens=0,
    )


def _block(item: dict[str, Any]) -> dict[str, Any] | None:
    """An output item as the content block the log and the tool-call cross-check read."""
    kind = item.get("type")
    if kind == "message":
        return {"type": "text", "text": _texts(item.get("content"), "")}
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
        return {"type": "thinking", "thinking": _texts(item.get("summary"), " ")}
    return None


def _texts(parts: Any, sep: str) -> str:
    """The texts of an item's parts (a message's content, a reasoning's summary), joined."""
    if not isinstance(parts, list):
        return ""
    return sep.join(str(p.get("text", "")) for p in parts if isinstance(p, dict))


class ResponsesReading(FrameReading):
    """The Responses API's answer (Codex's wire)."""

    def _whole(self, body: dict[str, Any]) -> None:
        self._response(body)

    def _event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "response.output_item.done" and isinstance(event.get("item"), dict):
            self._item(event["item"])
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
                self._item(item)
        self._finished(body)

    def _finished(self, response: dict[str, Any]) -> None:
        self.answer.usage = usage_of(response.get("usage"))
        status = response.get("status")
        calls = any(b.get("type") == "tool_use" for b in self.answer.content)
        self.answer.stop_reason = "tool_use" if calls else (str(status) if isinstance(status, str) else None)
        self.answer.complete = True

    def _item(self, item: dict[str, Any]) -> None:
        block = _block(item)
        if block is not None:
            self._keep(block)
