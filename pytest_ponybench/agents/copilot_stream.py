"""Copilot CLI's `--output-format json` stream, parsed once into a `Transcript`.

What @github/copilot 1.0.102 writes, one JSON object a line, each with `type` and `data`
(many marked `ephemeral`: deltas, model calls):

- `session.skills_loaded` (`skills`: name, `commandName` (`plugin:skill` for a plugin's),
  `source`: builtin, plugin, personal, project), `session.mcp_servers_loaded` (`servers`),
  `session.tools_updated`: gathered into the transcript's `init`, in claude's shape (`skills`
  as commandNames, `plugins` by the prefix of their skills, `mcp_servers` with a status);
- `user.message` (`content`), `assistant.turn_start` / `assistant.turn_end` (one model request
  each), `assistant.message` (`content`, `toolRequests`: toolCallId, name, arguments),
  `assistant.reasoning` (`content`);
- `tool.execution_complete` (toolCallId, `success`, `result.content`, `error`, and `skillName` /
  `pluginName` where a skill ran);
- `session.error` (`message`, `statusCode`): the session failed on the API;
- `result` last (`sessionId`, `exitCode`, `usage`: durations and code changes, no tokens).

Its stream holds no token counts (the gateway's are the figures) and no hooks (a SessionStart
hook's output shows only in what reached the model). Values the CLI counts as secret (its
provider key: the seat's token) are written as `******`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench.agents.streamread import Reader, bounded_lines, count, text_of
from pytest_ponybench.core.transcript import HookEvent, Message, Note, Transcript

__all__ = ["hook_events", "parse", "parse_lines"]


def parse(path: Path) -> Transcript:
    """The transcript of the stream at path (a missing file: an empty one)."""
    return parse_lines(bounded_lines(path))


def parse_lines(lines: Iterable[bytes | str | None]) -> Transcript:
    """The transcript of stream lines (None stands for a line too long to read)."""
    return _Reader(out=Transcript(agent="copilot", cli_usage=False)).parse(lines)


def hook_events(lines: Iterable[bytes | str | None]) -> list[HookEvent]:
    """The hooks of a session's own event log (`session-state/<id>/events.jsonl` in its
    COPILOT_HOME): `hook.start` / `hook.end` with the hook's type and output."""
    reader = _Reader()
    reader.parse(lines)
    return reader.out.hook_events


_QUIET = ("assistant.message_delta", "assistant.message_start", "assistant.tool_call_delta", "model.")


@dataclass
class _Reader(Reader):
    error: Mapping[str, Any] | None = None
    skills: list[str] = field(default_factory=list)
    plugins: list[str] = field(default_factory=list)
    servers: list[dict[str, Any]] = field(default_factory=list)
    hooks: dict[str, int] = field(default_factory=dict)

    def event(self, ev: dict[str, Any]) -> None:
        kind = str(ev.get("type") or "")
        given = ev.get("data")
        data: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        if kind == "result":
            self.end(ev)
        elif kind == "session.skills_loaded":
            self.loaded_skills(data)
        elif kind == "session.mcp_servers_loaded":
            for server in data.get("servers") or []:
                if isinstance(server, Mapping) and isinstance(server.get("name"), str):
                    status = str(server.get("status") or "connected")
                    if status != "disabled":  # its own built-in servers, off in every session
                        self.servers.append({"name": server["name"], "status": status})
        elif kind == "user.message" and isinstance(data.get("content"), str):
            self.entries.append(Message("user", data["content"]))
        elif kind == "assistant.turn_start":
            self.out.assistant_turns += 1
        elif kind == "assistant.message":
            self.message(data)
        elif kind == "assistant.reasoning" and isinstance(data.get("content"), str):
            self.entries.append(Message("assistant", data["content"], thinking=True))
        elif kind == "tool.execution_complete":
            self.completed(data)
        elif kind in ("hook.start", "hook.end"):
            self.hook(data, ended=kind == "hook.end")
        elif kind == "session.error":
            self.error = data
            self.note("session error", data, error=True)
        elif not kind.startswith(_QUIET) and kind not in ("tool.execution_start", "assistant.idle"):
            self.note(kind, data)

    def loaded_skills(self, data: Mapping[str, Any]) -> None:
        for skill in data.get("skills") or []:
            if not isinstance(skill, Mapping) or skill.get("source") == "builtin":
                continue
            name = str(skill.get("commandName") or skill.get("name") or "")
            if name and name not in self.skills:
                self.skills.append(name)
            plugin = name.split(":", 1)[0] if ":" in name else None
            if skill.get("source") == "plugin" and plugin and plugin not in self.plugins:
                self.plugins.append(plugin)

    def message(self, data: Mapping[str, Any]) -> None:
        content = data.get("content")
        if isinstance(content, str) and content:
            self.text(content)
        for request in data.get("toolRequests") or []:
            if isinstance(request, Mapping):
                name = str(request.get("name") or "")
                self.call(name, request.get("arguments"), str(request.get("toolCallId") or ""))
                if name == "task":
                    self.out.subagents += 1

    def completed(self, data: Mapping[str, Any]) -> None:
        failed = data.get("success") is not True
        given = data.get("result")
        result: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        error = data.get("error")
        if failed and error is not None:
            text = str(error.get("message") if isinstance(error, Mapping) else error)
        else:
            text = text_of(result.get("content", ""))
        self.result(str(data.get("toolCallId") or ""), text, failed)

    def hook(self, data: Mapping[str, Any], ended: bool) -> None:
        kind = str(data.get("hookType") or "")
        event = kind[:1].upper() + kind[1:]  # sessionStart -> SessionStart, as claude names it
        output = data.get("output")
        found = HookEvent(
            event=event,
            name=kind,
            ended=ended,
            stdout=(output if isinstance(output, str) else text_of(output) if output else "")
            if ended
            else "",
            outcome=("success" if data.get("success") is True else "error") if ended else "",
            id=str(data.get("hookInvocationId") or ""),
        )
        events = self.out.hook_events
        if found.id in self.hooks:
            events[self.hooks[found.id]] = found
        else:
            self.hooks[found.id] = len(events)
            events.append(found)

    def end(self, ev: dict[str, Any]) -> None:
        out = self.out
        out.results += 1
        if out.result is not None:
            return  # the first is the session's; a second is never believed
        code = ev.get("exitCode")
        usage = ev.get("usage")
        used: Mapping[str, Any] = usage if isinstance(usage, Mapping) else {}
        status = (self.error or {}).get("statusCode")
        failed = self.error is not None or code != 0
        out.result = {
            **ev,
            "subtype": "error" if failed else "success",
            "is_error": failed,
            "api_error_status": status if isinstance(status, int) and not isinstance(status, bool) else None,
            "num_turns": out.assistant_turns,
            "duration_ms": count(used.get("sessionDurationMs")) or None,
        }
        if self.error is not None:
            out.result["result"] = str(self.error.get("message") or "session error")
        sid = ev.get("sessionId")
        out.session_id = sid if isinstance(sid, str) and sid.strip("*") else None
        out.turns = out.assistant_turns
        out.duration_ms = out.result["duration_ms"]
        text = f"exit code: {code}   turns: {out.assistant_turns}   error: {failed}"
        self.entries.append(Note("result", text, failed, "final"))

    def finish(self) -> Transcript:
        if self.skills or self.servers or self.plugins:
            self.out.init = {
                "skills": list(self.skills),
                "plugins": [{"name": p} for p in self.plugins],
                "mcp_servers": list(self.servers),
            }
        return super().finish()
