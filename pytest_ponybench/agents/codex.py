"""Codex CLI as an agent: `codex exec --json` headless, through the gateway's Responses route.

Facts this adapter relies on (@openai/codex 0.171.0, measured against this project's offline
server with nothing but npm and loopback):

- It speaks the OpenAI Responses API only (`wire_api = "responses"`), over a WebSocket first
  unless its provider says `supports_websockets = false`. Its provider is the gateway when
  `$CODEX_HOME/config.toml` names a provider of ours (`base_url` the seat's URL + `/v1`, the
  seat's token in the variable `env_key` names); `--ignore-user-config` would skip that file too,
  so CODEX_HOME is the session's own and holds nothing else. Its requests name their session
  (`session-id`, the stream's `thread_id`).
- A model it does not know gets fallback metadata without the `apply_patch` tool: each model of
  the session is given as an entry of a catalog of our own (`model_catalog_json`), made from
  the first entry of its built-in catalog (`codex debug models`) that edits with the freeform
  `apply_patch` tool, so the session has the CLI's own instructions and tools.
- Hermetic: `--ephemeral` (no session files), no update check, no analytics, no web search;
  its shell tools (`shell_tool`, `unified_exec`) are disabled in every session, as claude's
  Bash is; its own sandbox is bypassed (the cell's confinement is the sandbox).
- What it appends to its prompt: `developer_instructions` (the arm's prompt, the task's, the
  instruction every arm gets). It reads AGENTS.md in the workspace and, told so
  (`project_doc_fallback_filenames`), CLAUDE.md; `$CODEX_HOME/AGENTS.md` as the user's; skills
  from `~/.agents/skills`; MCP servers from `mcp_servers` (stdio).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_ponybench.agents import codex_stream
from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.common import (
    OtherCli,
    appended,
    session_env,
)
from pytest_ponybench.agents.install import agent_placements, lay_arm
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.endpoint import is_offline
from pytest_ponybench.core.policy import AgentPolicy

__all__ = ["Codex", "DISABLED", "KEY_ENV", "PROVIDER", "template_model", "toml_value"]

PROVIDER = "ponybench"
KEY_ENV = "PONYBENCH_GATEWAY_KEY"  # the seat's token, which its provider sends as a bearer
# Features off in every session: its shell (the benchmark measures code written, not run), and
# what would call out or wait for a person.
DISABLED = (
    "shell_tool",
    "unified_exec",
    "shell_snapshot",
    "goals",
    "image_generation",
    "apps",
    "in_app_updates",
)
_CLAUDE_ONLY = ("plugin", "settings", "agents", "output-style")
# Codex offers an MCP server's tools only behind its own tool search (deferred): what a session
# was given of them is not in its request, so nothing would prove such an arm reached it.
_UNPROVEN = ("mcp",)


def toml_value(value: Any) -> str:
    """A value as TOML (strings, numbers, booleans and lists of them; JSON's escapes are TOML's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value)


@functools.cache
def template_model(binary: str) -> dict[str, Any]:
    """The first model of the CLI's built-in catalog that edits with the freeform apply_patch
    tool and no code mode (asked once per process, in a HOME of its own)."""
    with tempfile.TemporaryDirectory(prefix="ponybench-codex-catalog-") as tmp:
        home = Path(tmp, ".codex")
        home.mkdir()
        done = subprocess.run(
            [binary, "debug", "models"],
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tmp, "CODEX_HOME": str(home)},
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    try:
        models = json.loads(done.stdout)["models"]
    except (ValueError, KeyError, TypeError):
        raise RuntimeError(f"codex debug models gave no catalog: {done.stderr.strip()[-300:]}") from None
    for model in models:
        if model.get("apply_patch_tool_type") == "freeform" and model.get("tool_mode") is None:
            return dict(model)
    raise RuntimeError("codex's catalog has no model that edits with the freeform apply_patch tool")


class Codex(OtherCli):
    """`codex exec`, headless, its CODEX_HOME the session's own."""

    name = "codex"
    package = "@openai/codex"
    pinned = "0.171.0"
    offline_only = True  # its Responses API has no live upstream at the gateway yet
    label = "Codex"
    missing_result = "no finished turn"
    parse = staticmethod(codex_stream.parse)

    def command(
        self, binary: str, spec: SessionSpec, arm: Arm, policy: AgentPolicy | None = None
    ) -> list[str]:
        """The session's command: the appended text as developer instructions, its shell and
        what would call out off, the prompt after `--`."""
        policy = policy or AgentPolicy()
        cmd = [
            binary,
            "exec",
            "--json",
            "--skip-git-repo-check",
            "--ephemeral",
            "--dangerously-bypass-approvals-and-sandbox",
            "--color",
            "never",
            "-m",
            spec.model,
            "-c",
            f"developer_instructions={toml_value(appended(arm, policy))}",
        ]
        for feature in DISABLED:
            cmd += ["--disable", feature]
        return [*cmd, "--", spec.prompt]

    def environment(self, spec: SessionSpec, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """Its own HOME and CODEX_HOME, whose config.toml (written here) makes the gateway its
        provider and gives an offline model the CLI's own tools; the seat's token in KEY_ENV."""
        env = session_env(spec, base)
        home = spec.home
        codex_home = home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        config: dict[str, Any] = {
            "model_provider": PROVIDER,
            "check_for_update_on_startup": False,
            "web_search": "disabled",
            "project_doc_fallback_filenames": ["CLAUDE.md"],
        }
        if is_offline(spec.model):
            catalog = codex_home / "ponybench-models.json"
            model = template_model(shutil.which(self.binary) or self.binary)
            entry = {**model, "slug": spec.model, "display_name": spec.model, "upgrade": None}
            catalog.write_text(
                json.dumps({"models": [{**entry, "prefer_websockets": False}]}), encoding="utf-8"
            )
            config["model_catalog_json"] = str(catalog)
        provider = {
            "name": "ponybench gateway",
            "base_url": (spec.base_url or "").rstrip("/") + "/v1",
            "wire_api": "responses",
            "env_key": KEY_ENV,
            "supports_websockets": False,
            "request_max_retries": 0 if spec.offline else 2,
            "stream_max_retries": 0 if spec.offline else 2,
            "stream_idle_timeout_ms": spec.api_timeout_ms,
        }
        lines = [f"{k} = {toml_value(v)}" for k, v in config.items()]
        lines += ["", "[analytics]", "enabled = false", "", f"[model_providers.{PROVIDER}]"]
        lines += [f"{k} = {toml_value(v)}" for k, v in provider.items()]
        (codex_home / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        env.update(
            {
                "CODEX_HOME": str(codex_home),
                "XDG_CONFIG_HOME": str(home / ".config"),
                "XDG_CACHE_HOME": str(home / ".cache"),
                "XDG_STATE_HOME": str(home / ".local" / "state"),
            }
        )
        if spec.api_key:
            env[KEY_ENV] = spec.api_key
        return env

    def install(self, arm: Arm, workspace: Path, home: Path) -> dict[str, str]:
        """A CLAUDE.md into the workspace (@user: `$CODEX_HOME/AGENTS.md`), skills into
        `~/.agents/skills`."""
        return lay_arm(arm, workspace, home, agent_placements(arm, ".codex/AGENTS.md"))

    def arm_refusal(self, arm: Arm) -> str | None:
        for part in arm.parts:
            if part.kind in _CLAUDE_ONLY:
                return f"a {part.kind} part is Claude Code's own; Codex has no equivalent ponybench maps"
            if part.kind in _UNPROVEN:
                return (
                    "Codex offers an MCP server's tools only behind its tool search, so the pre-flight "
                    "cannot prove they reached the model"
                )
        return None
