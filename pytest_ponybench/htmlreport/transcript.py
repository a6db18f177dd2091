"""A cell's transcript from the CLI's stream-json: one plain item per thing a reader looks at.

The stream is agent-written text: items hold strings only, and the page inserts them as text.
Parsing is by field, never by position (the CLI's key order moves between releases); a line that
is not JSON, or an event we do not know, becomes a generic item rather than an error.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

__all__ = ["Item", "KEEP_CHARS", "MAX_ITEMS", "items_of", "prompt_from_requests"]

# A text longer than this is kept cut in the report's cell file (the whole stream stays in the
# cell folder); the page shows less again at first, with a button for the rest.
KEEP_CHARS = 2_000_000
MAX_ITEMS = 2_000


class Item(TypedDict, total=False):
    kind: str  # prompt | session | hook | text | thinking | tool | result | final | event | note
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


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # a tool result's content blocks
        parts = [
            str(b.get("text", "")) if isinstance(b, Mapping) and "text" in b else _json(b) for b in value
        ]
        return "\n".join(parts)
    return _json(value)


def _json(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False, default=str)


def _tool_call(block: Mapping[str, Any]) -> Item:
    name = str(block.get("name", "?"))
    raw = block.get("input")
    args: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    item: Item = {"kind": "tool", "title": name}
    path = args.get("file_path") or args.get("notebook_path") or args.get("path")
    if isinstance(path, str):
        item["path"] = path
    if name == "Write" and isinstance(args.get("content"), str):
        _clip(args["content"], item, "code")
    elif name == "Edit" and isinstance(args.get("new_string"), str):
        _clip(str(args.get("old_string", "")), item, "old")
        _clip(args["new_string"], item, "code")
    else:
        _clip(_json(raw), item, "text")
    return item


def _assistant(event: Mapping[str, Any]) -> list[Item]:
    message = event.get("message")
    content = message.get("content") if isinstance(message, Mapping) else None
    items: list[Item] = []
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, Mapping):
            continue
        kind = block.get("type")
        if kind == "text":
            item: Item = {"kind": "text", "title": "assistant"}
            _clip(str(block.get("text", "")), item, "text")
        elif kind == "thinking":
            item = {"kind": "thinking", "title": "thinking"}
            _clip(str(block.get("thinking", "")), item, "text")
        elif kind == "tool_use":
            item = _tool_call(block)
        else:
            item = {"kind": "event", "title": f"assistant {kind}"}
            _clip(_json(block), item, "text")
        items.append(item)
    return items


def _user(event: Mapping[str, Any]) -> list[Item]:
    message = event.get("message")
    content = message.get("content") if isinstance(message, Mapping) else None
    if isinstance(content, str):
        item: Item = {"kind": "text", "title": "user"}
        _clip(content, item, "text")
        return [item]
    items: list[Item] = []
    for block in content if isinstance(content, list) else ():
        if isinstance(block, Mapping) and block.get("type") == "tool_result":
            item = {"kind": "result", "title": "tool result", "error": block.get("is_error") is True}
            _clip(_as_text(block.get("content", "")), item, "text")
        else:
            item = {"kind": "text", "title": "user"}
            _clip(_as_text([block]), item, "text")
        items.append(item)
    return items


def _system(event: Mapping[str, Any]) -> Item:
    sub = str(event.get("subtype", ""))
    if sub == "init":
        plugins = [p.get("name") if isinstance(p, Mapping) else p for p in event.get("plugins") or []]
        lines = [
            f"model: {event.get('model')}",
            f"tools: {len(event.get('tools') or [])}",
            f"plugins: {', '.join(map(str, plugins)) or 'none'}",
            f"skills: {', '.join(map(str, event.get('skills') or [])) or 'none'}",
            f"permission mode: {event.get('permissionMode')}",
            f"claude: {event.get('claude_code_version', '?')}",
        ]
        return {"kind": "session", "title": "session start", "text": "\n".join(lines)}
    if sub.startswith("hook"):
        item: Item = {"kind": "hook", "title": f"{sub} {event.get('hook_name', '')}".strip()}
        _clip(str(event.get("output") or event.get("stdout") or _json(event)), item, "text")
        return item
    item = {"kind": "event", "title": f"system {sub}"}
    _clip(_json(event), item, "text")
    return item


def _final(event: Mapping[str, Any]) -> Item:
    usage = event.get("usage") if isinstance(event.get("usage"), Mapping) else {}
    assert isinstance(usage, Mapping)
    lines = [
        f"subtype: {event.get('subtype')}   is_error: {event.get('is_error')}",
        f"turns: {event.get('num_turns')}   duration_ms: {event.get('duration_ms')}   "
        f"cost_usd: {event.get('total_cost_usd')}",
        "usage: "
        + ", ".join(
            f"{k} {usage.get(k)}"
            for k in (
                "input_tokens",
                "output_tokens",
                "cache_read_input_tokens",
                "cache_creation_input_tokens",
            )
            if k in usage
        ),
    ]
    if event.get("api_error_status") is not None:
        lines.append(f"api_error_status: {event.get('api_error_status')}")
    if event.get("permission_denials"):
        lines.append(f"permission denials: {_json(event.get('permission_denials'))}")
    result = event.get("result")
    if isinstance(result, str) and result:
        lines += ["", result]
    item: Item = {"kind": "final", "title": "result", "error": event.get("is_error") is True}
    _clip("\n".join(lines), item, "text")
    return item


def items_of(lines: Iterable[str], prompt: str | None = None) -> list[Item]:
    """Transcript items from the lines of a claude.jsonl, the task's prompt first when known."""
    items: list[Item] = []
    if prompt:
        items.append({"kind": "prompt", "title": "prompt", "text": prompt})
    for line in lines:
        if len(items) >= MAX_ITEMS:
            items.append(
                {"kind": "note", "title": "cut", "text": f"more than {MAX_ITEMS} items; see claude.jsonl"}
            )
            break
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            item: Item = {"kind": "event", "title": "not JSON"}
            _clip(line, item, "text")
            items.append(item)
            continue
        if not isinstance(event, Mapping):
            continue
        kind = event.get("type")
        if kind == "assistant":
            items += _assistant(event)
        elif kind == "user":
            items += _user(event)
        elif kind == "system":
            items.append(_system(event))
        elif kind == "result":
            items.append(_final(event))
        else:
            item = {"kind": "event", "title": str(kind)}
            _clip(_json(event), item, "text")
            items.append(item)
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
