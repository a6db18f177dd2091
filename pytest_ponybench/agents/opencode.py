"""OpenCode as an agent: `opencode run` headless, hermetic, through the gateway.

Facts this adapter relies on (opencode-ai 1.18.33, measured against this project's offline
server with nothing but npm and loopback):

- `opencode run --format json --model anthropic/<model> --title <t> <message>`: JSON events on
  stdout (`opencode_stream`); `--title` spares a side request that names the session. A message
  that starts with `-` would be read as a flag (a space is put before it); `--` before it would
  reach the model as a quoted string.
- Its Anthropic provider is the gateway when `provider.anthropic.options.baseURL` is the seat's
  URL + `/v1` (without `/v1`: a 404 on `/messages`) and the model is declared under
  `provider.anthropic.models` (else ProviderModelNotFoundError). Given in `OPENCODE_CONFIG_CONTENT`
  (the token never lands in a file).
- Hermetic: every XDG folder inside the session's own HOME; `OPENCODE_DISABLE_AUTOUPDATE`,
  `OPENCODE_DISABLE_MODELS_FETCH` (models.dev), `OPENCODE_DISABLE_LSP_DOWNLOAD`, `autoupdate`
  and `share` off in its config. Each config folder it finds (its global one in HOME) gets a
  background `npm install @opencode-ai/plugin` unless the folder already has a `node_modules`
  and a lock naming that package: both are laid first. `rg` must be on PATH, else it downloads
  ripgrep. With all of that, the session's one connection is to its model.
- `PWD` must be the workspace (the process's cwd alone is not enough): `SessionSpec.workspace`.
- Tools `write {filePath, content}`, `edit {filePath, oldString, newString}`, `read {filePath}`,
  `skill {name}`, MCP tools as `<server>_<tool>`; `bash` is denied to every session as claude's
  Bash is. `agent.build.steps` bounds its turns.
- Its system prompt takes files listed under `instructions` ("Instructions from: <path>"): the
  arm's prompt, the task's appended prompt and the instruction every arm gets go there, in a file
  of the session's HOME. Skills are read from `~/.agents/skills` (and `~/.claude/skills`), listed
  in the system prompt. A CLAUDE.md in the workspace is read when there is no AGENTS.md.
- It writes `.opencode/.gitignore` into the workspace when `.opencode/` exists: nothing is laid
  there. It exits 0 when its model says it cannot act, and 1 on an API error (an `error` event).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_ponybench.agents import opencode_stream
from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.common import OtherCli, appended, prompt_argument, session_env
from pytest_ponybench.agents.install import agent_placements, lay_arm, plugin_brings, plugin_mcp_servers
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.policy import AgentPolicy

__all__ = ["CONFIG_DIR", "INSTRUCTIONS", "OpenCode", "mcp_servers"]

CONFIG_DIR = ".config/opencode"  # its global config folder, in the session's HOME
INSTRUCTIONS = "ponybench-instructions.md"  # in that folder: what every session's system prompt ends with
USER_MEMORY = f"{CONFIG_DIR}/AGENTS.md"  # its global rules file: a claude-md part placed @user
# A lock that names the plugin package: its background install then finds nothing to do.
_LOCK = {"packages": {"": {"dependencies": {"@opencode-ai/plugin": "*"}}}}
# Arm kinds OpenCode has no equivalent for.
_CLAUDE_ONLY = ("settings", "agents", "output-style")


def mcp_servers(config: Mapping[str, Any]) -> dict[str, Any]:
    """An MCP config's stdio servers (`mcpServers`) as OpenCode's `mcp` entries."""
    out: dict[str, Any] = {}
    servers = config.get("mcpServers")
    for name, server in (servers if isinstance(servers, Mapping) else {}).items():
        if not isinstance(server, Mapping):
            continue
        entry: dict[str, Any] = {
            "type": "local",
            "command": [str(server.get("command")), *[str(a) for a in server.get("args") or []]],
            "enabled": True,
        }
        if isinstance(server.get("env"), Mapping) and server["env"]:
            entry["environment"] = {str(k): str(v) for k, v in server["env"].items()}
        out[str(name)] = entry
    return out


class OpenCode(OtherCli):
    """`opencode run`, headless, its config in the session's own HOME."""

    name = "opencode"
    package = "opencode-ai"
    pinned = "1.18.33"
    label = "OpenCode"
    missing_result = "no finished step"
    parse = staticmethod(opencode_stream.parse)

    def command(
        self, binary: str, spec: SessionSpec, arm: Arm, policy: AgentPolicy | None = None
    ) -> list[str]:
        """The session's command; its config (what the arm and the task add, the instruction
        every arm gets, the turn limit, bash denied) is written into its HOME here."""
        policy = policy or AgentPolicy()
        folder = spec.home / CONFIG_DIR
        folder.mkdir(parents=True, exist_ok=True)
        (folder / INSTRUCTIONS).write_text(appended(arm, policy) + "\n", encoding="utf-8")
        servers = mcp_servers(json.loads(arm.mcp_config or "{}"))
        for plugin in arm.plugin_dirs:
            servers.update(mcp_servers({"mcpServers": plugin_mcp_servers(plugin)}))
        config: dict[str, Any] = {
            "autoupdate": False,
            "share": "disabled",
            "snapshot": False,
            "lsp": False,
            "formatter": False,
            "permission": {"bash": "deny"},
            "instructions": [str(folder / INSTRUCTIONS)],
            "agent": {"build": {"steps": spec.max_turns}},
        }
        if servers:
            config["mcp"] = servers
        (folder / "opencode.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
        (folder / "node_modules").mkdir(exist_ok=True)
        (folder / "package-lock.json").write_text(json.dumps(_LOCK), encoding="utf-8")
        message = prompt_argument(spec.prompt)
        model = f"anthropic/{spec.model}"
        return [binary, "run", "--format", "json", "--model", model, "--title", "ponybench", message]

    def environment(self, spec: SessionSpec, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """Its own HOME and XDG folders, the gateway as its Anthropic provider with the seat's
        token, no update, no model list, no language server download."""
        env = session_env(spec, base)
        home = spec.home
        provider: dict[str, Any] = {
            "options": {"timeout": spec.api_timeout_ms},
            "models": {spec.model: {"name": spec.model}},
        }
        if spec.base_url:
            provider["options"]["baseURL"] = spec.base_url.rstrip("/") + "/v1"
        if spec.api_key:
            provider["options"]["apiKey"] = spec.api_key
        content = {
            "enabled_providers": ["anthropic"],
            "model": f"anthropic/{spec.model}",
            "small_model": f"anthropic/{spec.model}",
            "provider": {"anthropic": provider},
        }
        env.update(
            {
                "XDG_CONFIG_HOME": str(home / ".config"),
                "XDG_DATA_HOME": str(home / ".local" / "share"),
                "XDG_STATE_HOME": str(home / ".local" / "state"),
                "XDG_CACHE_HOME": str(home / ".cache"),
                "OPENCODE_CONFIG_CONTENT": json.dumps(content),
                "OPENCODE_DISABLE_AUTOUPDATE": "1",
                "OPENCODE_DISABLE_MODELS_FETCH": "1",
                "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
                "OPENCODE_DISABLE_SHARE": "1",
            }
        )
        return env

    def install(self, arm: Arm, workspace: Path, home: Path) -> dict[str, str]:
        """A CLAUDE.md into the workspace (@user: its global AGENTS.md), skills (the arm's and
        a plugin's own) into `~/.agents/skills`."""
        return lay_arm(arm, workspace, home, agent_placements(arm, USER_MEMORY, plugin_skills=True))

    def arm_refusal(self, arm: Arm) -> str | None:
        for part in arm.parts:
            if part.kind in _CLAUDE_ONLY:
                return f"a {part.kind} part is Claude Code's own; OpenCode has no equivalent"
            if part.kind == "plugin" and part.path is not None:
                brings = plugin_brings(part.path)
                kept = [k for k in ("hooks", "agents") if brings[k]]
                if kept:
                    return (
                        f"plugin {part.names[0]} brings {' and '.join(kept)}, which OpenCode cannot "
                        "run (it gets a plugin's skills and MCP servers)"
                    )
        return None
