"""What each arm brings to its sessions (plugins, hooks, skills, commands, agents, MCP servers),
taken from what the run knows: the pre-flight's activation evidence in run.json when it ran,
else one kept cell of the arm read beside one of the baseline.

A cell's start event (its transcript's `init`) lists what its session was offered, the CLI's
own built-ins included; what the arm brings is what its session lists and the baseline's does
not (so a skill the CLI ships is never counted as the arm's). Its hooks are the events of the
hooks the session ran, and a hook whose end reports an error is said so with its exit status.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pytest_ponybench.agents import registry
from pytest_ponybench.core import armproof
from pytest_ponybench.core import skills as skills_mod
from pytest_ponybench.store.celldir import CellDir

__all__ = ["KINDS", "Brought", "from_evidence", "from_streams", "read_session", "words"]

# In the order a reader asks: what loads, what runs by itself, what the model can call.
KINDS = ("plugins", "hooks", "skills", "commands", "agents", "mcp servers")
Brought = dict[str, list[str]]  # kind -> names


def _server(name: str, status: Any) -> str:
    return name if status == "connected" else f"{name} ({status})"


def read_session(stream: Path) -> Brought:
    """Everything one session was offered, by kind, from its transcript (empty when unreadable)."""
    out: Brought = {kind: [] for kind in KINDS}
    t = registry.get().parse(stream)
    init = t.init
    if init is not None:
        out["plugins"] = skills_mod.arm_plugins(init)
        out["skills"] = armproof.listed(init, "skills")
        out["commands"] = armproof.listed(init, "slash_commands")
        out["agents"] = armproof.listed(init, "agents")
        servers = init.get("mcp_servers")
        out["mcp servers"] = [
            _server(str(s["name"]), s.get("status"))
            for s in (servers if isinstance(servers, list) else [])
            if isinstance(s, dict) and isinstance(s.get("name"), str)
        ]
    failed: dict[str, str] = {}
    for hook in t.hook_events:
        if not hook.event:
            continue
        if hook.event not in out["hooks"]:
            out["hooks"].append(hook.event)
        if hook.ended and hook.outcome not in ("", "success"):
            failed[hook.event] = f"{hook.outcome}, exit {hook.exit_code}"
    out["hooks"] = [f"{h} ({failed[h]})" if h in failed else h for h in out["hooks"]]
    return out


def from_streams(arm: Path, baseline: Path | None) -> Brought:
    """What a session of the arm was offered that one of the baseline was not."""
    mine = read_session(CellDir(arm).stream)
    base = read_session(CellDir(baseline).stream) if baseline is not None else {}
    return {kind: [n for n in mine[kind] if n not in set(base.get(kind, []))] for kind in KINDS}


def _merge(into: Brought, kind: str, names: Iterable[Any]) -> None:
    for name in names:
        if isinstance(name, str) and name not in into[kind]:
            into[kind].append(name)


def from_evidence(evidence: Mapping[str, Any]) -> Brought:
    """What the pre-flight proved of one arm (run.json's `preflight.arms[].evidence`): a
    composed arm's evidence is a list of parts, each read alike. Its plugins are named by the
    arm's own description (run.json's `arms`), so not here."""
    out: Brought = {kind: [] for kind in KINDS}
    parts = evidence.get("parts")
    for part in parts if isinstance(parts, list) else [evidence]:
        if not isinstance(part, Mapping):
            continue
        registered = part.get("registered")
        if isinstance(registered, Mapping):
            for kind in ("skills", "commands", "agents"):
                got = registered.get(kind)
                _merge(out, kind, got if isinstance(got, list) else [])
        hooks = part.get("hook_events")
        _merge(out, "hooks", hooks if isinstance(hooks, list) else [])
        servers = part.get("mcp_servers")
        if isinstance(servers, Mapping):
            _merge(out, "mcp servers", [_server(str(n), status) for n, status in servers.items()])
        for key, kind in (("skills_listed", "skills"), ("agents_listed", "agents")):
            got = part.get(key)
            _merge(out, kind, got if isinstance(got, list) else [])
    return out


def words(brought: Mapping[str, Sequence[str]]) -> str:
    """ "hooks SessionStart; skills careful:careful-review" ("" when it brings none of these)."""
    return "; ".join(f"{kind} {', '.join(brought[kind])}" for kind in KINDS if brought.get(kind))
