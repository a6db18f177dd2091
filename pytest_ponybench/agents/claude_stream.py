"""claude's stream-json, parsed once into a `Transcript`.

By field, never by position: key order changes between CLI versions. Line by line
(`streamread.Reader`): the stream is capped where it is captured and never held whole here.
What claude 2.1.x writes:

- `system/init` first (after the SessionStart hooks): cwd, session_id, tools, plugins (built-in
  ones with `path: "builtin"`), `plugin_errors`, skills, agents, slash_commands, mcp_servers;
- `system/hook_started` and `system/hook_response` (hook_id, hook_event, hook_name, stdout,
  stderr, output, exit_code, outcome) for every hook the session runs (SessionStart's only,
  without `--include-hook-events`); `output` is stdout and stderr together, so a crash's stderr
  is never read as what the hook printed; `system/api_retry` (retry_delay_ms);
- one `assistant` event per content block, all with the message's id and its usage (count a
  message once); `parent_tool_use_id` set inside a subagent;
- `user` events carrying `tool_result` blocks (tool_use_id, content, is_error);
- one `result` event at the end: result, usage, total_cost_usd, num_turns, duration_ms,
  permission_denials, is_error, api_error_status, terminal_reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench.agents.streamread import Reader, bounded_lines, count, dumped, number, text_of
from pytest_ponybench.core.transcript import HookEvent, Message, Note, Transcript, Usage

__all__ = ["SUBAGENT_TOOLS", "bounded_lines", "parse", "parse_lines"]

SUBAGENT_TOOLS = ("Task", "Agent")


def parse(path: Path) -> Transcript:
    """The transcript of the stream at path (a missing file: an empty one)."""
    return parse_lines(bounded_lines(path))


def parse_lines(lines: Iterable[bytes | str | None]) -> Transcript:
    """The transcript of stream lines (None stands for a line too long to read)."""
    return _Reader().parse(lines)


@dataclass
class _Reader(Reader):
    hooks: dict[str, int] = field(default_factory=dict)  # hook_id -> its place in hook_events
    seen_messages: set[str] = field(default_factory=set)

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
            self.note(title, ev)

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
        self.note("session start", "\n".join(lines), kind="session")

    def hook(self, ev: dict[str, Any], ended: bool) -> None:
        event = str(ev.get("hook_event") or str(ev.get("hook_name") or "").split(":")[0])
        code = ev.get("exit_code")
        found = HookEvent(
            event=event,
            name=str(ev.get("hook_name") or ""),
            ended=ended,
            exit_code=code if ended and isinstance(code, int) and not isinstance(code, bool) else None,
            # `output` holds stderr too: only a CLI that gives no `stdout` is read by it.
            stdout=str((ev.get("stdout") if "stdout" in ev else ev.get("output")) or "") if ended else "",
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
                name = str(block.get("name", ""))
                self.call(name, block.get("input"), str(block.get("id", "")), sub)
                if name in SUBAGENT_TOOLS:
                    self.out.subagents += 1
            else:
                self.note(f"assistant {kind}", block)

    def user(self, ev: dict[str, Any]) -> None:
        message = ev.get("message")
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, str):
            self.entries.append(Message("user", content))
            return
        for block in content if isinstance(content, list) else ():
            if isinstance(block, Mapping) and block.get("type") == "tool_result":
                error = block.get("is_error") is True
                self.result(str(block.get("tool_use_id", "")), text_of(block.get("content", "")), error)
            elif isinstance(block, Mapping):
                self.entries.append(Message("user", text_of([block])))

    def end(self, ev: dict[str, Any]) -> None:
        out = self.out
        out.results += 1
        if out.result is None:  # the first is the session's; a second is never believed
            out.result = ev
            out.usage = _usage(ev.get("usage"))
            out.cost_usd = number(ev.get("total_cost_usd"))
            turns, duration = ev.get("num_turns"), ev.get("duration_ms")
            out.turns = turns if isinstance(turns, int) and not isinstance(turns, bool) else None
            out.duration_ms = (
                duration if isinstance(duration, int) and not isinstance(duration, bool) else None
            )
            denials = ev.get("permission_denials")
            out.denials = len(denials) if isinstance(denials, list) else 0
        self.entries.append(Note("result", _final(ev), ev.get("is_error") is True, "final"))


def _usage(value: Any) -> Usage:
    given: Mapping[str, Any] = value if isinstance(value, Mapping) else {}
    return Usage(
        input_tokens=count(given.get("input_tokens")),
        output_tokens=count(given.get("output_tokens")),
        cache_read_tokens=count(given.get("cache_read_input_tokens")),
        cache_write_tokens=count(given.get("cache_creation_input_tokens")),
    )


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
        lines.append(f"permission denials: {dumped(ev.get('permission_denials'))}")
    result = ev.get("result")
    if isinstance(result, str) and result:
        lines += ["", result]
    return "\n".join(lines)
