"""A cell's transcript as the report shows it: one plain item per thing a reader looks at.

Made from the session's `Transcript` (its adapter parsed the stream once; the report's source
asks the adapter named by the record). The stream is agent-written text: items hold strings
only, and the page inserts them as text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypedDict

from pytest_ponybench.agents.base import Dialect
from pytest_ponybench.core.transcript import HookEvent, Message, Note, ToolCall, ToolResult, Transcript
from pytest_ponybench.gateway.log import texts_of

__all__ = ["Item", "KEEP_CHARS", "MAX_ITEMS", "items_of", "prompt_from_requests", "request_items"]

# A text longer than this is kept cut in the report's cell file (the whole stream stays in the
# cell folder); the page shows less again at first, with a button for the rest.
KEEP_CHARS = 2_000_000
MAX_ITEMS = 2_000
_PATH_KEYS = ("file_path", "notebook_path", "path", "filePath")


class Item(TypedDict, total=False):
    kind: str  # prompt | session | hook | text | thinking | tool | result | final | event | note
    #          | request | side (a model request as the gateway saw it: the agent's, a side call)
    title: str
    text: str
    code: str  # a Write's content, an Edit's new text: shown as code
    path: str
    old: str
    error: bool
    cut: int  # characters left out of `text`/`code` in the cell file


def _clip(text: str, item: Item, key: str) -> None:
    if len(text) > KEEP_CHARS:
        item["cut"] = item.get("cut", 0) + len(text) - KEEP_CHARS
        text = text[:KEEP_CHARS]
    item[key] = text  # type: ignore[literal-required]


def _json(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False, default=str)


def _tool_call(call: ToolCall, dialect: Dialect) -> Item:
    args: Mapping[str, Any] = call.input or {}
    item: Item = {"kind": "tool", "title": call.tool}
    path = next((args[k] for k in _PATH_KEYS if isinstance(args.get(k), str)), None)
    if path is not None:
        item["path"] = path
    if call.tool == dialect.write and isinstance(args.get(dialect.write_content), str):
        _clip(args[dialect.write_content], item, "code")
    elif call.tool == dialect.edit and isinstance(args.get(dialect.edit_new), str):
        _clip(str(args.get(dialect.edit_old, "")), item, "old")
        _clip(args[dialect.edit_new], item, "code")
    else:
        _clip(_json(dict(args)) if call.input is not None else call.raw, item, "text")
    return item


def _hook(hook: HookEvent) -> Item:
    item: Item = {"kind": "hook", "title": f"hook_response {hook.name or hook.event}".strip()}
    if hook.failed:
        item["error"] = True
    text = hook.stdout
    if hook.stderr and hook.stderr not in text:
        text = f"{text}\n[stderr]\n{hook.stderr}" if text else hook.stderr
    if hook.exit_code not in (None, 0):
        text = f"{text}\n[exit code {hook.exit_code}]".lstrip("\n")
    _clip(text, item, "text")
    return item


def _item(entry: object, dialect: Dialect) -> Item:
    if isinstance(entry, Message):
        kind = "thinking" if entry.thinking else "text"
        item: Item = {"kind": kind, "title": "thinking" if entry.thinking else entry.role}
        _clip(entry.text, item, "text")
        return item
    if isinstance(entry, ToolCall):
        return _tool_call(entry, dialect)
    if isinstance(entry, ToolResult):
        item = {"kind": "result", "title": "tool result", "error": entry.is_error}
        _clip(entry.text, item, "text")
        return item
    if isinstance(entry, HookEvent):
        return _hook(entry)
    assert isinstance(entry, Note)
    item = {"kind": entry.kind, "title": entry.title}
    if entry.error:
        item["error"] = True
    _clip(entry.text, item, "text")
    return item


def items_of(transcript: Transcript, dialect: Dialect, prompt: str | None = None) -> list[Item]:
    """Transcript items of a session, the task's prompt first when known."""
    items: list[Item] = []
    if prompt:
        items.append({"kind": "prompt", "title": "prompt", "text": prompt})
    for entry in transcript.entries:
        if len(items) >= MAX_ITEMS:
            items.append(
                {"kind": "note", "title": "cut", "text": f"more than {MAX_ITEMS} items; see the stream"}
            )
            break
        items.append(_item(entry, dialect))
    return items


def prompt_from_requests(first_request_line: str) -> str | None:
    """The user prompt in the first request the offline server logged: the last text block of
    the first user message that is not a `<system-reminder>` the CLI added."""
    try:
        entry = json.loads(first_request_line)
    except json.JSONDecodeError:
        return None
    body = entry.get("body") if isinstance(entry, Mapping) else None
    messages = body.get("messages") if isinstance(body, Mapping) else None
    if not isinstance(messages, list) or not messages or not isinstance(messages[0], Mapping):
        return None
    content = messages[0].get("content")
    if isinstance(content, str):
        return content
    texts = [
        str(b.get("text"))
        for b in (content if isinstance(content, list) else [])
        if isinstance(b, Mapping)
        and b.get("type") == "text"
        and not str(b.get("text", "")).lstrip().startswith("<system-reminder>")
    ]
    return texts[-1] if texts else None


def request_items(lines: list[dict[str, Any]], main_session: str | None) -> list[Item]:
    """The cell's model requests as the gateway saw them, after the session's own items: who
    asked (the agent's session, or a side call: another session in the cell, a hook's or an MCP
    server's), the model, the status, tokens and dollars, and what reached the model that was
    new (a hook's context among it) and what it answered."""
    if not lines:
        return []
    items: list[Item] = [
        {"kind": "note", "title": "as the model gateway saw it", "text": f"{len(lines)} request(s)"}
    ]
    for line in lines[:MAX_ITEMS]:
        session = line.get("session")
        side = main_session is not None and session != main_session
        usage = line.get("usage") if isinstance(line.get("usage"), Mapping) else {}
        assert isinstance(usage, Mapping)
        tokens = sum(int(v) for v in usage.values() if isinstance(v, int))
        model = str(line.get("model"))
        if line.get("served"):
            model += f" (played by {line['served']})"
        title = (
            f"model request {line.get('n')} ({'side call' if side else 'agent'}): {model}, "
            f"{line.get('status')}, {tokens:,} tokens, ${float(line.get('cost_usd') or 0):.4f}"
        )
        request = line.get("request") if isinstance(line.get("request"), Mapping) else {}
        assert isinstance(request, Mapping)
        sent = "\n\n".join(t for t in texts_of(request.get("messages")) if t)
        answered = "\n\n".join(t for t in texts_of(line.get("response")) if t)
        why = line.get("refused") or line.get("error")
        text = "\n".join(
            part
            for part in (
                f"[{why}]" if why else "",
                f"sent (new):\n{sent}" if sent else "",
                f"answered:\n{answered}" if answered else "",
            )
            if part
        )
        item: Item = {"kind": "side" if side else "request", "title": title}
        if why or int(line.get("status") or 0) >= 400:
            item["error"] = True
        _clip(text, item, "text")
        items.append(item)
    return items
