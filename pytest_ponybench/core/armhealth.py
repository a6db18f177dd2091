"""An arm's health in one session, and which of its hooks acted.

What of the arm failed in the session (the record's `arm_errors`): a plugin the CLI could not
load, a hook that crashed (its event, exit status and stderr, by the hook protocol of
`core.hookproto`), an MCP server that did not connect or was never started, a skill, agent or
command its folders bring that the session did not register. And which of its hooks acted (the
record's `hooks_fired`): gave the model context that reached it, or a decision. Both read from
the session's transcript (and the text the model gateway saw reach the model), never from what
the agent says; the pre-flight's probe session and every cell say them in the same words.

Pure functions: a transcript and an arm in, typed values out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pytest_ponybench._util import textfiles
from pytest_ponybench.core import armproof, hookproto
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.skills import registered
from pytest_ponybench.core.transcript import Transcript

__all__ = ["ERROR_KINDS", "ArmError", "arm_errors", "from_record", "hook_errors", "hooks_fired"]

# In the order a session meets them: the plugin loads, its hooks run, its servers start, what
# it brings is registered.
ERROR_KINDS = ("plugin", "hook", "mcp", "skill", "agent", "command")
_SAID = {"mcp": "MCP server"}


@dataclass(frozen=True)
class ArmError:
    """One thing of the arm that failed in a session: its kind, its name (a hook's event, a
    server's, `plugin:skill`), what happened, a hook's exit status and how often it failed."""

    kind: str
    name: str
    message: str
    exit_code: int | None = None
    times: int = 1

    def text(self) -> str:
        """ "hook SessionStart exited 1: Error: Cannot find module ..." """
        times = f" ({self.times} times)" if self.times > 1 else ""
        return f"{_SAID.get(self.kind, self.kind)} {self.name} {self.message}{times}"

    def as_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "message": self.message}
        if self.exit_code is not None:
            out["exit_code"] = self.exit_code
        if self.times > 1:
            out["times"] = self.times
        return out


def from_record(value: Any) -> ArmError | None:
    """One entry of a record's `arm_errors` read back (any version, edited by hand), or None
    when it is not one."""
    if not isinstance(value, Mapping):
        return None
    kind, name, message = value.get("kind"), value.get("name"), value.get("message")
    if not (isinstance(kind, str) and isinstance(name, str) and isinstance(message, str)):
        return None
    code, times = value.get("exit_code"), value.get("times")
    return ArmError(
        kind,
        name,
        message,
        code if isinstance(code, int) and not isinstance(code, bool) else None,
        times if isinstance(times, int) and not isinstance(times, bool) and times > 0 else 1,
    )


def hook_errors(transcript: Transcript) -> list[ArmError]:
    """Every hook event whose hook crashed, once each: its first failure and how often."""
    found: dict[str, ArmError] = {}
    for hook in transcript.hook_events:
        if not hookproto.crashed(hook):
            continue
        name = hook.event or hook.name or "?"
        seen = found.get(name)
        found[name] = (
            ArmError("hook", name, hookproto.failure(hook), hook.exit_code)
            if seen is None
            else ArmError(seen.kind, seen.name, seen.message, seen.exit_code, seen.times + 1)
        )
    return list(found.values())


def _servers(init: Mapping[str, Any]) -> dict[str, str]:
    items = init.get("mcp_servers")
    return {
        str(s["name"]): str(s.get("status"))
        for s in (items if isinstance(items, list) else [])
        if isinstance(s, dict) and isinstance(s.get("name"), str)
    }


def arm_errors(arm: Arm, transcript: Transcript) -> list[ArmError]:
    """What of the arm failed in the session, in the order of ERROR_KINDS."""
    init = transcript.init
    out: list[ArmError] = []
    plugins = [(p.path, armproof.plugin_name(p.path)) for p in arm.of("plugin") if p.path is not None]
    errors = (init or {}).get("plugin_errors") if plugins else None
    for error in errors if isinstance(errors, list) else []:
        what = (error.get("plugin") or error.get("source")) if isinstance(error, dict) else None
        said = error.get("message") or error.get("error") or error if isinstance(error, dict) else error
        out.append(
            ArmError(
                "plugin", str(what or plugins[0][1]), f"could not be loaded: {textfiles.quote(str(said))}"
            )
        )
    if init is not None:
        loaded = armproof.listed(init, "plugins")
        out += [
            ArmError("plugin", name, "was not loaded (the session lists no such plugin)")
            for _path, name in plugins
            if name not in loaded and not any(e.kind == "plugin" for e in out)
        ]
    out += hook_errors(transcript)
    if init is None:  # the session never said what it loaded: nothing more to compare
        return out
    status = _servers(init)
    wanted = [n for p in arm.of("mcp") for n in p.names]
    wanted += [n for path, _name in plugins for n in armproof.declared_mcp_servers(path)]
    for name in dict.fromkeys([*wanted, *status]):
        if name not in status:
            out.append(ArmError("mcp", name, "was not started (the session lists no such server)"))
        elif status[name] != "connected":
            out.append(ArmError("mcp", name, f"did not connect (status {status[name]})"))
    have = registered(init, [name for _path, name in plugins])
    listed = {kind: armproof.listed(init, kind) for kind in ("skills", "agents")}
    for kind in ("skills", "agents", "commands"):
        wanted = [n for path, name in plugins for n in armproof.declared_components(path, name)[kind]]
        if kind in listed:
            wanted += [n for p in arm.of(kind) for n in p.names]
        for name in wanted:
            if name not in have[kind] and name not in listed.get(kind, []):
                out.append(ArmError(kind[:-1], name, "was not registered in the session"))
    return out


def hooks_fired(transcript: Transcript, model_input: str = "") -> list[str]:
    """The events of the session's hooks that acted, once each in order: a decision, or context
    the model was given (found in what reached the model when the gateway's view is at hand,
    else as the hook protocol says it is given). A crashed hook never acted."""
    fired: list[str] = []
    for hook in transcript.hook_events:
        if not hook.ended or hook.event in fired or hookproto.crashed(hook):
            continue
        context = hookproto.context_of(hook.stdout, hook.event) if hook.exit_code in (None, 0) else None
        given = context is not None and (not model_input or armproof.reached(context, model_input))
        if given or hookproto.decided(hook):
            fired.append(hook.event)
    return fired
