"""Did an arm's parts reach the session? What its init event and its requests must show.

Pure functions over the `system/init` event of the stream and the text of the offline server's
request log (claude 2.1.332): an MCP server is listed in `mcp_servers` with status `connected`
and its tools in `tools` as `mcp__<server>__<tool>`; a user skill is listed in `skills` by its
folder's name and an agent in `agents` by its front matter's name; a prompt, a CLAUDE.md and an
output style are text the model's request carries (the JSON body escapes it). A plugin is
proven by `plan/preflight.plugin_problems`, which reads its hooks' events as well; what a plugin
folder brings (hooks, skills, agents, commands, MCP servers) is read here from its files, as the
CLI reads them, for the pre-flight and for each cell's health (`core.armhealth`).

Another CLI shows less at its start, and the request says the rest: Copilot CLI lists skills
and MCP servers (gathered into a claude-shaped init by its parser) but not their tools, OpenCode
lists nothing; both list skills in the system prompt as `<name>skill</name>` (Codex as a
`- skill: ...` line) and offer an MCP server's tools under their own prefix (`notes-lookup`,
`notes_lookup`; `Dialect.mcp_prefix`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_ponybench.core.armparts import Part, front_matter, mcp_tool_prefix, style_body
from pytest_ponybench.core.arms import Arm

__all__ = [
    "NEEDLE_CHARS",
    "arm_hook_events",
    "connection_problems",
    "declared_components",
    "declared_hook_events",
    "declared_mcp_servers",
    "init_proof",
    "plugin_name",
    "listed",
    "offered_tools",
    "reached",
    "request_proof",
]

NEEDLE_CHARS = 200  # the head of a text looked for in the request log


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _manifest(plugin_dir: Path) -> dict[str, Any]:
    data = _json(plugin_dir / ".claude-plugin" / "plugin.json")
    return data if isinstance(data, dict) else {}


def plugin_name(plugin_dir: Path) -> str:
    """The plugin's name as the CLI registers it: its manifest's, else its folder's."""
    name = _manifest(plugin_dir).get("name")
    return str(name) if name else plugin_dir.name


def _events(data: Any) -> set[str]:
    hooks = data.get("hooks") if isinstance(data, dict) and "hooks" in data else data
    return {str(k) for k in hooks} if isinstance(hooks, dict) else set()


def declared_hook_events(plugin_dir: Path) -> set[str]:
    """The events the plugin hooks (hooks/hooks.json, or the manifest's `hooks`: inline, a path,
    or a list of paths), e.g. {"SessionStart", "PreToolUse"}."""
    sources: list[Any] = [_json(plugin_dir / "hooks" / "hooks.json")]
    given = _manifest(plugin_dir).get("hooks")
    for item in given if isinstance(given, list) else [given]:
        sources.append(_json(plugin_dir / item) if isinstance(item, str) else item)
    return {event for data in sources for event in _events(data)}


def arm_hook_events(arm: Arm) -> set[str]:
    """The events every hook of the arm is on: its plugins' and its settings' `hooks`."""
    events: set[str] = set()
    for part in arm.parts:
        if part.kind == "plugin" and part.path is not None:
            events |= declared_hook_events(part.path)
        elif part.kind == "settings":
            events |= _events(part.settings().get("hooks"))
    return events


def _front_name(path: Path, default: str) -> str:
    """The `name:` of a Markdown file's front matter, else default."""
    try:
        meta = front_matter(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return default
    return (meta or {}).get("name") or default


def declared_components(plugin_dir: Path, plugin: str) -> dict[str, list[str]]:
    """What the plugin folder brings, as the CLI names it once registered (`plugin:name`):
    skills (skills/<dir>/SKILL.md), agents (agents/*.md), commands (commands/*.md)."""
    skills = [_front_name(f, f.parent.name) for f in sorted(plugin_dir.glob("skills/*/SKILL.md"))]
    agents = [_front_name(f, f.stem) for f in sorted(plugin_dir.glob("agents/*.md"))]
    commands = [f.stem for f in sorted(plugin_dir.glob("commands/*.md"))]
    return {
        "skills": [f"{plugin}:{n}" for n in skills],
        "agents": [f"{plugin}:{n}" for n in agents],
        "commands": [f"{plugin}:{n}" for n in commands],
    }


def declared_mcp_servers(plugin_dir: Path) -> list[str]:
    """The MCP servers the plugin declares (.mcp.json at its root, or the manifest's
    `mcpServers`: inline or a path), by name."""
    given = _manifest(plugin_dir).get("mcpServers")
    sources = [
        _json(plugin_dir / ".mcp.json"),
        _json(plugin_dir / given) if isinstance(given, str) else given,
    ]
    names: list[str] = []
    for data in sources:
        servers = data.get("mcpServers", data) if isinstance(data, dict) else None
        for name in servers if isinstance(servers, dict) else ():
            if str(name) not in names:
                names.append(str(name))
    return names


def reached(text: str, log: str) -> bool:
    """Whether the head of text is in the request log, as it is or JSON-escaped."""
    head = text.strip()[:NEEDLE_CHARS]
    return bool(head) and (head in log or json.dumps(head)[1:-1] in log)


def listed(init: Mapping[str, Any], key: str) -> list[str]:
    """The names an init event lists under key (entries are names or objects with a name)."""
    items = init.get(key)
    out = []
    for item in items if isinstance(items, list) else []:
        name = item.get("name") if isinstance(item, dict) else item
        if isinstance(name, str):
            out.append(name)
    return out


def _servers(init: Mapping[str, Any]) -> dict[str, str]:
    items = init.get("mcp_servers")
    out: dict[str, str] = {}
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            out[item["name"]] = str(item.get("status"))
    return out


def connection_problems(arm: Arm, init: Mapping[str, Any]) -> list[str]:
    """The arm's MCP servers that did not connect in this session (each cell checks it: a
    server that failed to start measured the baseline under the arm's name)."""
    status = _servers(init)
    return [
        f"its MCP server {name!r} did not connect (status {status.get(name, 'not listed')})"
        for part in arm.of("mcp")
        for name in part.names
        if status.get(name) != "connected"
    ]


def offered_tools(log: str, prefix: str) -> list[str]:
    """The tool names a logged request offered that start with prefix."""
    pattern = re.compile(r'"name": "(' + re.escape(prefix) + r'[^"]+)"')
    return sorted(set(pattern.findall(log)))


def _mcp(
    part: Part, init: Mapping[str, Any], log: str, tool_prefix: str | None
) -> tuple[list[str], dict[str, Any]]:
    tools = listed(init, "tools")
    problems: list[str] = []
    found: dict[str, list[str]] = {}
    status = _servers(init)
    for name in part.names:
        if tool_prefix is None:
            prefix = mcp_tool_prefix(name)
            found[name] = [t for t in tools if t.startswith(prefix)]
        else:  # another CLI: the tools its request offered, under its own prefix
            prefix = tool_prefix.format(server=name)
            found[name] = offered_tools(log, prefix)
        if (tool_prefix is None or "mcp_servers" in init) and status.get(name) != "connected":
            problems.append(
                f"its MCP server {name!r} did not connect (status {status.get(name, 'not listed')}); "
                "in the cell it can read only its config's folder and the system"
            )
        elif not found[name] and name not in status:
            problems.append(
                f"its MCP server {name!r} offered the model no tool {prefix}* (it did not start, or has none)"
            )
        elif not found[name]:
            problems.append(f"its MCP server {name!r} connected but the session lists no tool {prefix}*")
    return problems, {"mcp_servers": {n: status.get(n) for n in part.names}, "mcp_tools": found}


def _names(
    part: Part, init: Mapping[str, Any], key: str, what: str, log: str = ""
) -> tuple[list[str], dict[str, Any]]:
    have = listed(init, key)
    # A skill another CLI lists in its system prompt rather than at its start: OpenCode and
    # Copilot CLI as `<name>skill</name>`, Codex as a `- skill: description` line.
    have += [n for n in part.names if key == "skills" and (f"<name>{n}</name>" in log or f"- {n}: " in log)]
    missing = [n for n in part.names if n not in have]
    problems = [f"its {what} {n!r} is not listed in the session's {key}" for n in missing]
    return problems, {f"{key}_listed": [n for n in part.names if n in have]}


def init_proof(
    part: Part, init: Mapping[str, Any], log: str = "", tool_prefix: str | None = None
) -> tuple[list[str], dict[str, Any]]:
    """What the init event (or, for a CLI that shows less at its start, the request log) must
    list for an MCP, skills or agents part: (problems, evidence). tool_prefix: how another CLI
    names an MCP server's tools (`{server}_`); None: claude's, in its init."""
    if part.kind == "mcp":
        return _mcp(part, init, log, tool_prefix)
    if part.kind == "skills":
        return _names(part, init, "skills", "skill", log)
    if part.kind == "agents":
        return _names(part, init, "agents", "agent")
    return [], {}


def _text_of(part: Part) -> str | None:
    """The text of a part the model's request must carry, or None."""
    if part.kind == "prompt":
        return part.text
    if part.kind in ("claude-md", "output-style") and part.path is not None:
        text = part.path.read_text(encoding="utf-8", errors="replace")
        return style_body(text) if part.kind == "output-style" else text
    return None


def request_proof(part: Part, log: str) -> tuple[list[str], dict[str, Any]]:
    """What the logged requests must carry for a prompt, CLAUDE.md or output style part."""
    text = _text_of(part)
    if text is None:
        return [], {}
    ok = reached(text, log)
    if part.kind == "prompt":
        key, message = "prompt_in_request", "the appended prompt is not in the model's system prompt"
    elif part.kind == "claude-md":
        key = "claude_md_in_request"
        message = f"its CLAUDE.md never reached the model (placed @{part.scope})"
    else:
        key = "output_style_in_request"
        message = f"its output style {part.names[0]!r} never reached the model's system prompt"
    return ([] if ok else [message]), {key: ok}
