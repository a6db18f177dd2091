"""Is the arm exercised? Which plugin skills, agents and commands a session had (and the skills a
skills arm placed), and which it used.

Read from the session's transcript: its start event (claude's `system/init`) lists the
skills, agents and slash commands registered, named `plugin:name` when a plugin brings them, and
the plugins loaded (built-in ones with `path: "builtin"`); an invocation is an assistant
`tool_use` of `Skill` (`input.skill`), of `Agent`/`Task` (`input.subagent_type`) or of
`SlashCommand` (`input.command`). A trigger check that greps the reply for a skill's name reads
0 % on current CLI versions; these are the events the CLI really writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_ponybench.core.records import Record
from pytest_ponybench.core.transcript import ToolCall, Transcript

__all__ = ["INVOKERS", "arm_plugins", "exercised", "invoked", "registered", "usage"]

# tool name -> the input field that names what was invoked
INVOKERS = {"Skill": "skill", "Agent": "subagent_type", "Task": "subagent_type", "SlashCommand": "command"}


def arm_plugins(init: Mapping[str, Any]) -> list[str]:
    """Names of the plugins the session loaded that are not the CLI's own built-ins."""
    names = []
    for plugin in init.get("plugins") or []:
        if isinstance(plugin, dict) and plugin.get("path") != "builtin" and plugin.get("name"):
            names.append(str(plugin["name"]))
        elif isinstance(plugin, str):
            names.append(plugin)
    return names


def registered(init: Mapping[str, Any], plugins: Iterable[str] | None = None) -> dict[str, list[str]]:
    """The skills, agents and commands the init event lists from these plugins (default: every
    plugin that is not built in), by kind."""
    prefixes = {f"{p}:" for p in (arm_plugins(init) if plugins is None else plugins)}
    out: dict[str, list[str]] = {}
    for kind, key in (("skills", "skills"), ("agents", "agents"), ("commands", "slash_commands")):
        listed = init.get(key) or []
        names = [str(n.get("name") if isinstance(n, dict) else n) for n in listed]
        out[kind] = sorted({n for n in names if any(n.startswith(p) for p in prefixes)})
    return out


def _name(text: str) -> str:
    return text.strip().lstrip("/").split()[0] if text.strip() else ""


def invoked(calls: Iterable[ToolCall]) -> list[str]:
    """What the session invoked through Skill, Agent/Task and SlashCommand calls, in order, once
    each; agents only when a plugin brings them (`plugin:agent`), not the built-in general ones."""
    used: list[str] = []
    for call in calls:
        field = INVOKERS.get(call.tool)
        given = call.input
        if field is None or given is None or not isinstance(given.get(field), str):
            continue
        name = _name(given[field])
        if field == "subagent_type" and ":" not in name:
            continue
        if name and name not in used:
            used.append(name)
    return used


def usage(transcript: Transcript, own: Iterable[str] = ()) -> Record:
    """The record fields of one cell: `skills_available` (what the arm's plugins registered:
    skills, agents, commands; and of `own`, the skills a skills arm placed, those the session
    lists, by their folder's name) and `skills_used` (what the session invoked)."""
    init = transcript.init or {}
    reg = registered(init)
    listed = {str(n.get("name") if isinstance(n, dict) else n) for n in init.get("skills") or []}
    available = sorted({*reg["skills"], *reg["agents"], *reg["commands"], *(set(own) & listed)})
    return Record(skills_available=available, skills_used=invoked(transcript.tool_calls))


def exercised(rec: Record) -> bool | None:
    """Whether a cell used anything its arm's plugin registered; None when it registered nothing."""
    available = rec.get("skills_available")
    if not isinstance(available, list) or not available:
        return None
    used = rec.get("skills_used")
    return bool(isinstance(used, list) and set(used) & set(available))
