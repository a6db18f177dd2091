"""Codex's `exec --json` stream, parsed once into a `Transcript`.

What codex 0.171 writes, one JSON object a line:

- `thread.started` (`thread_id`: the session, also its requests' `session-id` header);
- `turn.started`, then `item.started` / `item.updated` / `item.completed` with an `item` by
  `type`: `agent_message` (`text`), `reasoning` (`text`), `file_change` (`changes`: path and
  kind, `status` completed or failed: what its apply_patch did), `command_execution` (`command`,
  `aggregated_output`, `exit_code`), `mcp_tool_call` (`server`, `tool`, `arguments`, `result`,
  `error`), `web_search`, `todo_list`, `error` (`message`: a warning it goes on after);
- `turn.completed` (`usage`: input tokens with the cached share apart, output tokens) or
  `turn.failed` (`error.message`), and `error` events (a reconnect, a fatal error).

Each completed item that acted is a tool call (a file change is `apply_patch` with its changes
as input; a command `exec_command`; an MCP call `mcp__<server>__<tool>`), named by the
stream's own item ids (not the API's call ids, so the gateway's cross-check of tool calls has
nothing to match); the session's end is made in claude's shape from its last turn's end.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_ponybench.agents.streamread import Reader, bounded_lines, count, dumped
from pytest_ponybench.core.transcript import Message, Note, Transcript, Usage

__all__ = ["parse", "parse_lines"]

_STATUS = re.compile(
    r"\b(?:status|HTTP)[:\s]+(\d{3})\b|\b(\d{3}) (?:Bad Request|Unauthorized|Too Many|Internal)"
)


def parse(path: Path) -> Transcript:
    """The transcript of the stream at path (a missing file: an empty one)."""
    return parse_lines(bounded_lines(path))


def parse_lines(lines: Iterable[bytes | str | None]) -> Transcript:
    """The transcript of stream lines (None stands for a line too long to read)."""
    return _Reader(out=Transcript(agent="codex")).parse(lines)


def _status_of(message: str) -> int | None:
    m = _STATUS.search(message)
    return int(m[1] or m[2]) if m else None


def _said(message: str) -> str:
    """An error's words: the API's own message where codex passes its JSON body on."""
    try:
        body = json.loads(message)
    except ValueError:
        return message
    error = body.get("error") if isinstance(body, dict) else None
    text = error.get("message") if isinstance(error, dict) else None
    return text if isinstance(text, str) and text else message


@dataclass
class _Reader(Reader):
    turns: int = 0
    failed: str | None = None  # the last fatal error's message
    ended: bool = False
    usage: Usage = Usage()

    def event(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        given = ev.get("item")
        item: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        if kind == "thread.started" and isinstance(ev.get("thread_id"), str):
            self.out.session_id = ev["thread_id"]
            self.note("session start", f"thread: {ev['thread_id']}", kind="session")
        elif kind == "turn.started":
            self.turns += 1
            self.out.assistant_turns += 1
        elif kind == "item.completed":
            self.completed(item)
        elif kind == "turn.completed":
            self.ended = True
            self.failed = None
            used = ev.get("usage")
            u: Mapping[str, Any] = used if isinstance(used, Mapping) else {}
            cached = count(u.get("cached_input_tokens"))
            self.usage = Usage(
                input_tokens=max(0, count(u.get("input_tokens")) - cached),
                output_tokens=count(u.get("output_tokens")),
                cache_read_tokens=cached,
                cache_write_tokens=count(u.get("cache_write_input_tokens")),
            )
        elif kind == "turn.failed":
            error = ev.get("error")
            self.failed = str(error.get("message") if isinstance(error, Mapping) else error)
            self.note("turn failed", ev, error=True)
        elif kind == "error":
            message = str(ev.get("message") or "")
            if not message.startswith("Reconnecting"):
                self.failed = message
            self.note("error", ev, error=True)
        elif kind not in ("item.started", "item.updated"):
            self.note(str(kind), ev)

    def completed(self, item: Mapping[str, Any]) -> None:
        kind = item.get("type")
        item_id = str(item.get("id") or "")
        if kind == "agent_message" and isinstance(item.get("text"), str):
            self.text(item["text"])
        elif kind == "reasoning" and isinstance(item.get("text"), str):
            self.entries.append(Message("assistant", item["text"], thinking=True))
        elif kind == "file_change":
            self.call("apply_patch", {"changes": item.get("changes") or []}, item_id, api_id=False)
            ok = item.get("status") == "completed"
            self.result(item_id, dumped(item.get("changes")), not ok)
        elif kind == "command_execution":
            self.call("exec_command", {"cmd": item.get("command")}, item_id, api_id=False)
            code = item.get("exit_code")
            self.result(item_id, str(item.get("aggregated_output") or ""), code not in (0, None))
        elif kind == "mcp_tool_call":
            name = f"mcp__{item.get('server')}__{item.get('tool')}"
            self.call(name, item.get("arguments"), item_id, api_id=False)
            error = item.get("error")
            self.result(item_id, dumped(error or item.get("result")), error is not None)
        elif kind == "error":
            self.note("warning", str(item.get("message") or ""))
        else:
            self.note(f"item {kind}", item)

    def finish(self) -> Transcript:
        out = self.out
        out.usage = self.usage
        out.turns = self.turns or None
        if self.failed is not None or self.ended:
            failed = self.failed is not None
            out.result = {
                "type": "result",
                "subtype": "error" if failed else "success",
                "is_error": failed,
                "api_error_status": _status_of(self.failed) if self.failed else None,
                "result": _said(self.failed) if self.failed else self.last_main_text,
                "num_turns": self.turns,
            }
            out.results = 1
            text = f"turns: {self.turns}   error: {self.failed or 'none'}"
            self.entries.append(Note("result", text, failed, "final"))
        return super().finish()
