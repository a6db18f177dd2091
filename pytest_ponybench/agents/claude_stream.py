"""claude's stream-json, parsed once into a `Transcript`.

By field, never by position: key order changes between CLI versions. Line by line, each line at
most `MAX_LINE_BYTES` (a longer one is skipped and counted): the stream is capped where it is
captured and never held whole here. Only "\\n" ends a line: the CLI leaves U+2028 unescaped
inside JSON strings. What claude 2.1.x writes:

- `system/init` first (after the SessionStart hooks): cwd, session_id, tools, plugins (built-in
  ones with `path: "builtin"`), `plugin_errors`, skills, agents, slash_commands, mcp_servers;
- `system/hook_started` and `system/hook_response` (hook_id, hook_event, hook_name, stdout,
  stderr, output, exit_code, outcome); `system/api_retry` (retry_delay_ms);
- one `assistant` event per content block, all with the message's id and its usage (count a
  message once); `parent_tool_use_id` set inside a subagent;
- `user` events carrying `tool_result` blocks (tool_use_id, content, is_error);
- one `result` event at the end: result, usage, total_cost_usd, num_turns, duration_ms,
  permission_denials, is_error, api_error_status, terminal_reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench.core.bounded import cut, parse_input
from pytest_ponybench.core.transcript import (
    INPUT_STRING_CHARS,
    MAX_LINE_BYTES,
    REPLY_CHARS,
    TRANSCRIPT_CHARS,
    Entry,
    HookEvent,
    Message,
    Note,
    ToolCall,
    ToolResult,
    Transcript,
    Usage,
)

__all__ = ["SUBAGENT_TOOLS", "bounded_lines", "parse", "parse_lines"]

SUBAGENT_TOOLS = ("Task", "Agent")


def parse(path: Path) -> Transcript:
    """The transcript of the stream at path (a missing file: an empty one)."""
    return parse_lines(bounded_lines(path))


def parse_lines(lines: Iterable[bytes | str | None]) -> Transcript:
    """The transcript of stream lines (None stands for a line too long to read)."""
    reader = _Reader()
    for line in lines:
        reader.line(line)
    return reader.finish()


def bounded_lines(path: Path) -> Iterator[bytes | None]:
    """The file's lines, each at most MAX_LINE_BYTES (None in place of a longer one), without
    ever holding more than that in memory; a missing file has no lines."""
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed in finally, read piecewise
    except OSError:
        return
    try:
        while True:
            line = fh.readline(MAX_LINE_BYTES + 1)
            if not line:
                return
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                while (rest := fh.readline(1 << 20)) and not rest.endswith(b"\n"):
                    pass
                yield None
                continue
            yield line
    finally:
        fh.close()


@dataclass(frozen=True)
class _Slot:
    """A tool call's place among the entries until its result is known."""

    index: int


@dataclass
class _Call:
    index: int
    tool: str
    input: Mapping[str, Any] | None
    raw: str
    subagent: bool
    id: str


@dataclass
class _Reader:
    out: Transcript = field(default_factory=Transcript)
    entries: list[Entry | _Slot] = field(default_factory=list)  # a call's slot until its result
    calls: list[_Call] = field(default_factory=list)
    by_id: dict[str, int] = field(default_factory=dict)
    results: dict[int, tuple[str, bool]] = field(default_factory=dict)
    hooks: dict[str, int] = field(default_factory=dict)  # hook_id -> its place in hook_events
    seen_messages: set[str] = field(default_factory=set)
    text_size: int = 0
    text_cut: bool = False
    last_main_text: str = ""

    def line(self, raw: bytes | str | None) -> None:
        out = self.out
        if raw is None:
            out.long_lines += 1
            return
        data = raw.encode("utf-8", "replace") if isinstance(raw, str) else raw
        if not data.strip():
            return
        if b"\0" in data:
            out.holes += 1
        try:
            event = json.loads(data.decode("utf-8", "replace"))
        except (ValueError, RecursionError):
            event = None
        if not isinstance(event, dict):
            out.bad_lines += 1
            self.entries.append(Note("not JSON", data.decode("utf-8", "replace")))
            return
        if out.results:
            out.after_result += 1
        self.event(event)

    def event(self, ev: dict[str, Any]) -> None:
        kind, sub = ev.get("type"), ev.get("subtype")
        if kind == "result":
            self.end(ev)
        elif kind == "system" and sub == "init":
            self.start(ev)
        elif kind == "system" and sub in ("hook_started", "hook_response"):
            self.hook(ev, ended=sub == "hook_response")
        elif kind == "assistant":
            self.assistant(ev)
        elif kind == "user":
            self.user(ev)
        else:
            if kind == "system" and sub == "api_retry":
                ms = ev.get("retry_delay_ms")
                if isinstance(ms, int | float) and not isinstance(ms, bool):
                    self.out.retry_after_s = ms / 1000
            title = f"{kind} {sub}" if sub else str(kind)
            self.entries.append(Note(title, _json(ev)))

    def start(self, ev: dict[str, Any]) -> None:
        out = self.out
        if out.init is None:
            out.init = ev
            cwd = ev.get("cwd")
            out.cwd = cwd if isinstance(cwd, str) and cwd.startswith("/") else None
            sid = ev.get("session_id")
            out.session_id = sid if isinstance(sid, str) else None
        plugins = [p.get("name") if isinstance(p, Mapping) else p for p in ev.get("plugins") or []]
        lines = [
            f"model: {ev.get('model')}",
            f"tools: {len(ev.get('tools') or [])}",
            f"plugins: {', '.join(map(str, plugins)) or 'none'}",
            f"skills: {', '.join(map(str, ev.get('skills') or [])) or 'none'}",
            f"permission mode: {ev.get('permissionMode')}",
            f"claude: {ev.get('claude_code_version', '?')}",
        ]
        self.entries.append(Note("session start", "\n".join(lines), kind="session"))

    def hook(self, ev: dict[str, Any], ended: bool) -> None:
        event = str(ev.get("hook_event") or str(ev.get("hook_name") or "").split(":")[0])
        code = ev.get("exit_code")
        found = HookEvent(
            event=event,
            name=str(ev.get("hook_name") or ""),
            ended=ended,
            exit_code=code if ended and isinstance(code, int) and not isinstance(code, bool) else None,
            stdout=str(ev.get("stdout") or ev.get("output") or "") if ended else "",
            stderr=str(ev.get("stderr") or "") if ended else "",
            outcome=str(ev.get("outcome") or "") if ended else "",
            id=str(ev.get("hook_id") or ""),
        )
        events = self.out.hook_events
        if found.id and found.id in self.hooks:
            events[self.hooks[found.id]] = found  # its start, now with its end
        else:
            if found.id:
                self.hooks[found.id] = len(events)
            events.append(found)
        if ended:
            self.entries.append(found)

    def assistant(self, ev: dict[str, Any]) -> None:
        out = self.out
        message = ev.get("message")
        msg: Mapping[str, Any] = message if isinstance(message, Mapping) else {}
        sub = ev.get("parent_tool_use_id") is not None
        msg_id = str(msg.get("id") or id(ev))
        if msg_id not in self.seen_messages:
            self.seen_messages.add(msg_id)
            out.peak_context_tokens = max(out.peak_context_tokens, _usage(msg.get("usage")).context)
            if not sub:
                out.assistant_turns += 1
        content = msg.get("content")
        for block in content if isinstance(content, list) else ():
            if not isinstance(block, Mapping):
                continue
            kind = block.get("type")
            if kind == "text" and isinstance(block.get("text"), str):
                self.text(block["text"], sub)
            elif kind == "thinking":
                text = str(block.get("thinking", ""))
                self.entries.append(Message("assistant", text, subagent=sub, thinking=True))
            elif kind == "tool_use":
                self.call(block, sub)
            else:
                self.entries.append(Note(f"assistant {kind}", _json(block)))

    def text(self, text: str, sub: bool) -> None:
        if not sub:
            self.last_main_text = text
        if self.text_size < TRANSCRIPT_CHARS:
            piece = text[: TRANSCRIPT_CHARS - self.text_size]
            self.text_cut = self.text_cut or len(piece) < len(text)
            self.out.texts.append(piece)
            self.text_size += len(piece) + 2
        else:
            self.text_cut = True
        self.entries.append(Message("assistant", text, subagent=sub))

    def call(self, block: Mapping[str, Any], sub: bool) -> None:
        name = str(block.get("name", ""))
        given, raw = parse_input(block.get("input"), INPUT_STRING_CHARS)
        call = _Call(len(self.calls), name, given, raw, sub, str(block.get("id", "")))
        self.calls.append(call)
        if call.id:
            self.by_id.setdefault(call.id, call.index)
        if name in SUBAGENT_TOOLS:
            self.out.subagents += 1
        self.entries.append(_Slot(call.index))

    def user(self, ev: dict[str, Any]) -> None:
        message = ev.get("message")
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, str):
            self.entries.append(Message("user", content))
            return
        for block in content if isinstance(content, list) else ():
            if isinstance(block, Mapping) and block.get("type") == "tool_result":
                index = self.by_id.get(str(block.get("tool_use_id", "")), -1)
                text = _as_text(block.get("content", ""))
                error = block.get("is_error") is True
                if index >= 0 and index not in self.results:
                    self.results[index] = (cut(text, INPUT_STRING_CHARS), error)
                self.entries.append(ToolResult(index, text, error))
            elif isinstance(block, Mapping):
                self.entries.append(Message("user", _as_text([block])))

    def end(self, ev: dict[str, Any]) -> None:
        out = self.out
        out.results += 1
        if out.result is None:  # the first is the session's; a second is never believed
            out.result = ev
            out.usage = _usage(ev.get("usage"))
            out.cost_usd = _number(ev.get("total_cost_usd"))
            turns, duration = ev.get("num_turns"), ev.get("duration_ms")
            out.turns = turns if isinstance(turns, int) and not isinstance(turns, bool) else None
            out.duration_ms = (
                duration if isinstance(duration, int) and not isinstance(duration, bool) else None
            )
            denials = ev.get("permission_denials")
            out.denials = len(denials) if isinstance(denials, list) else 0
        self.entries.append(Note("result", _final(ev), ev.get("is_error") is True, "final"))

    def finish(self) -> Transcript:
        out = self.out
        calls = [
            ToolCall(
                c.index,
                c.tool,
                c.input,
                c.raw,
                c.subagent,
                c.id,
                *(self.results[c.index] if c.index in self.results else (None, None)),
            )
            for c in self.calls
        ]
        out.tool_calls = calls
        out.entries = [calls[e.index] if isinstance(e, _Slot) else e for e in self.entries]
        result_text = (out.result or {}).get("result")
        reply = result_text if isinstance(result_text, str) and result_text else self.last_main_text
        if len(reply) > REPLY_CHARS:
            out.notes.append(f"the reply was cut at {REPLY_CHARS} characters (of {len(reply)})")
            reply = reply[:REPLY_CHARS]
        out.reply = reply
        if self.text_cut:
            out.notes.append(f"the transcript was cut at {TRANSCRIPT_CHARS} characters")
        if out.long_lines:
            out.notes.append(f"{out.long_lines} stream lines longer than {MAX_LINE_BYTES} bytes were skipped")
        if out.bad_lines:
            out.notes.append(f"{out.bad_lines} stream lines were not JSON objects")
        return out


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _count(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _usage(value: Any) -> Usage:
    given: Mapping[str, Any] = value if isinstance(value, Mapping) else {}
    return Usage(
        input_tokens=_count(given.get("input_tokens")),
        output_tokens=_count(given.get("output_tokens")),
        cache_read_tokens=_count(given.get("cache_read_input_tokens")),
        cache_write_tokens=_count(given.get("cache_creation_input_tokens")),
    )


def _json(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False, default=str)


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # a tool result's content blocks
        parts = [
            str(b.get("text", "")) if isinstance(b, Mapping) and "text" in b else _json(b) for b in value
        ]
        return "\n".join(parts)
    return _json(value)


def _final(ev: Mapping[str, Any]) -> str:
    """The end event in words, as the report shows it."""
    given = ev.get("usage")
    usage: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    keys = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
    lines = [
        f"subtype: {ev.get('subtype')}   is_error: {ev.get('is_error')}",
        f"turns: {ev.get('num_turns')}   duration_ms: {ev.get('duration_ms')}   "
        f"cost_usd: {ev.get('total_cost_usd')}",
        "usage: " + ", ".join(f"{k} {usage.get(k)}" for k in keys if k in usage),
    ]
    if ev.get("api_error_status") is not None:
        lines.append(f"api_error_status: {ev.get('api_error_status')}")
    if ev.get("permission_denials"):
        lines.append(f"permission denials: {_json(ev.get('permission_denials'))}")
    result = ev.get("result")
    if isinstance(result, str) and result:
        lines += ["", result]
    return "\n".join(lines)
