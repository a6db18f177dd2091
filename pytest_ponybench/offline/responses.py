"""The OpenAI Responses API as the offline server speaks it, for Codex: a request read as the
conversation the scripted agents read, their reply written back as Responses events.

Pure functions and small values; no model names, no cells, no sockets. What codex 0.171 sends
and needs (`wire_api = "responses"`, measured against a logging server):

- `POST <base>/responses` with `stream: true`, `store: false`, `model`, `input` (items: `message`
  with role developer / user / assistant and `input_text` / `output_text` content,
  `custom_tool_call` {call_id, name, input} and `custom_tool_call_output` {call_id, output},
  `function_call` {call_id, name, arguments} and `function_call_output`, `reasoning`), `tools`
  (`function` tools by `name`, the `custom` freeform `apply_patch`, `web_search`, ...). Its key
  comes as `Authorization: Bearer`; its session as the `session-id` header.
- The stream it needs: `response.created`, `response.output_item.added`, deltas
  (`response.output_text.delta`, `response.custom_tool_call_input.delta`,
  `response.function_call_arguments.delta`), `response.output_item.done` with the whole item,
  `response.completed` with `usage` (input_tokens, input_tokens_details.cached_tokens,
  output_tokens, output_tokens_details.reasoning_tokens). An error: an HTTP status with
  `{"error": {"message", "type", "code"}}`.

The scripted agents answer Anthropic-shaped conversations (`wire.Reply`); `as_messages` gives
them one: items become content blocks (a custom or function call a `tool_use`, its output a
`tool_result`), an `apply_patch` call's input `{"patch": text, "path": its first file}`.
`stream_response` turns their reply back: a `tool_use` of `apply_patch` a custom tool call whose
input is the patch, any other a function call. A file is written as one patch: added, or updated
by a hunk that replaces every line (a patch may not delete and add the same file).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from pytest_ponybench.offline import wire

__all__ = [
    "PATCH_TOOL",
    "as_messages",
    "error_response",
    "patch_for",
    "patch_paths",
    "stream_response",
    "usage",
]

PATCH_TOOL = "apply_patch"
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.M)


def patch_paths(patch: str) -> list[str]:
    """The files a patch names, in order (`*** Add File: ...`, `Update`, `Delete`)."""
    return [m.strip() for m in _PATCH_FILE.findall(patch)]


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def patch_for(path: str, new: str, old: str | None) -> str:
    """A patch that leaves path holding new: the file added, or (old: what it holds) an update
    whose one hunk replaces every line (a patch may not delete and add one file)."""
    added = "".join(f"+{line}\n" for line in _lines(new))
    if old is None:
        return f"*** Begin Patch\n*** Add File: {path}\n{added}*** End Patch\n"
    removed = "".join(f"-{line}\n" for line in _lines(old))
    return f"*** Begin Patch\n*** Update File: {path}\n@@\n{removed}{added}*** End Patch\n"


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else []
    return "\n".join(str(p.get("text", "")) for p in parts if isinstance(p, dict) and "text" in p)


def _call_input(item: dict[str, Any]) -> dict[str, Any]:
    if item.get("type") == "custom_tool_call":
        raw = str(item.get("input") or "")
        if item.get("name") == PATCH_TOOL:
            paths = patch_paths(raw)
            return {"patch": raw, "path": paths[-1] if paths else ""}
        return {"input": raw}
    try:
        given = json.loads(str(item.get("arguments") or "{}"))
    except ValueError:
        given = None
    return given if isinstance(given, dict) else {"arguments": item.get("arguments")}


def _failed(output: str) -> bool:
    """Codex reports a tool's failure in its output's words: a patch that did not apply, a
    command that exited non-zero."""
    low = output.lower()
    return not low.lstrip().startswith(("success", "exit code: 0")) and (
        "error" in low or "failed" in low or "exit code:" in low
    )


def as_messages(body: dict[str, Any]) -> dict[str, Any]:
    """A Responses request as the Messages-shaped body the scripted agents read: its developer
    text as `system`, its items as messages of content blocks, its tools by name."""
    system: list[str] = []
    messages: list[dict[str, Any]] = []

    def add(role: str, block: dict[str, Any]) -> None:
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].append(block)
        else:
            messages.append({"role": role, "content": [block]})

    if isinstance(body.get("instructions"), str):
        system.append(body["instructions"])
    items = body.get("input")
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        kind = item.get("type", "message")
        if kind == "message":
            role = str(item.get("role") or "user")
            text = _text(item.get("content"))
            if role in ("developer", "system"):
                system.append(text)
            else:
                add("assistant" if role == "assistant" else "user", {"type": "text", "text": text})
        elif kind in ("custom_tool_call", "function_call"):
            call = {
                "type": "tool_use",
                "id": str(item.get("call_id") or ""),
                "name": str(item.get("name") or ""),
            }
            add("assistant", {**call, "input": _call_input(item)})
        elif kind in ("custom_tool_call_output", "function_call_output"):
            output = item.get("output")
            text = output if isinstance(output, str) else json.dumps(output)
            result = {"type": "tool_result", "tool_use_id": str(item.get("call_id") or ""), "content": text}
            add("user", {**result, "is_error": _failed(text)})
    tools = body.get("tools")
    named = (
        [{"name": t["name"]} for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]
        if isinstance(tools, list)
        else []
    )
    return {
        "model": body.get("model"),
        "system": "\n\n".join(system),
        "messages": messages,
        "tools": named,
        "max_tokens": body.get("max_output_tokens") or 32000,
        "stream": body.get("stream", True),
    }


def usage(anthropic: dict[str, int]) -> dict[str, Any]:
    """The offline usage in the Responses form: every input token counted in `input_tokens`,
    the cache's read share as `cached_tokens` (the API has no cache writes)."""
    read = anthropic.get("cache_read_input_tokens", 0)
    total = anthropic.get("input_tokens", 0) + read + anthropic.get("cache_creation_input_tokens", 0)
    output = anthropic.get("output_tokens", 0)
    return {
        "input_tokens": total,
        "input_tokens_details": {"cached_tokens": read},
        "output_tokens": output,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": total + output,
    }


def _items(reply: wire.Reply, response_id: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n, block in enumerate(reply.content):
        item_id = f"{response_id}_{n}"
        if block["type"] == "text":
            content = [{"type": "output_text", "text": block["text"], "annotations": []}]
            out.append(
                {
                    "type": "message",
                    "id": item_id,
                    "role": "assistant",
                    "status": "completed",
                    "content": content,
                }
            )
        elif block["type"] == "tool_use" and block["name"] == PATCH_TOOL:
            patch = str(block["input"].get("patch", ""))
            out.append(
                {
                    "type": "custom_tool_call",
                    "id": item_id,
                    "call_id": block["id"],
                    "name": PATCH_TOOL,
                    "input": patch,
                    "status": "completed",
                }
            )
        elif block["type"] == "tool_use":
            arguments = json.dumps(block["input"])
            out.append(
                {
                    "type": "function_call",
                    "id": item_id,
                    "call_id": block["id"],
                    "name": block["name"],
                    "arguments": arguments,
                    "status": "completed",
                }
            )
    return out


def _events(items: list[dict[str, Any]], response: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield {
        "type": "response.created",
        "response": {**response, "status": "in_progress", "output": [], "usage": None},
    }
    for index, item in enumerate(items):
        kind = item["type"]
        start = {**item, "status": "in_progress"}
        if kind == "message":
            start["content"] = []
        elif kind == "custom_tool_call":
            start["input"] = ""
        else:
            start["arguments"] = ""
        yield {"type": "response.output_item.added", "output_index": index, "item": start}
        if kind == "message":
            text = item["content"][0]["text"]
            delta = {"item_id": item["id"], "output_index": index, "content_index": 0, "delta": text}
            yield {"type": "response.output_text.delta", **delta}
        elif kind == "custom_tool_call":
            yield {
                "type": "response.custom_tool_call_input.delta",
                "item_id": item["id"],
                "output_index": index,
                "delta": item["input"],
            }
        else:
            yield {
                "type": "response.function_call_arguments.delta",
                "item_id": item["id"],
                "output_index": index,
                "delta": item["arguments"],
            }
        yield {"type": "response.output_item.done", "output_index": index, "item": item}
    yield {"type": "response.completed", "response": {**response, "status": "completed", "output": items}}


def stream_response(
    model: str, reply: wire.Reply, anthropic_usage: dict[str, int], response_id: str
) -> wire.Response:
    """The reply as a Responses event stream, usage on its `response.completed`."""
    items = _items(reply, response_id)
    response = {"id": response_id, "object": "response", "model": model, "usage": usage(anthropic_usage)}
    frames = tuple(
        f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in _events(items, response)
    )
    return wire.Response(200, "text/event-stream", frames, None)


def error_response(err: wire.ApiError) -> wire.Response:
    """An API error in OpenAI's form."""
    payload = {"error": {"message": err.message, "type": err.kind, "code": err.kind, "param": None}}
    return wire.json_response(err.status, payload)
