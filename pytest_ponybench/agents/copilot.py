"""GitHub Copilot CLI as an agent: `copilot -p` headless, logged out, through the gateway.

Facts this adapter relies on (@github/copilot 1.0.102, measured against this project's offline
server with nothing but npm and loopback):

- `copilot -p <prompt> --model <m> --output-format json --allow-all-tools --no-ask-user`: JSON
  events on stdout (`copilot_stream`). In BYOK mode it needs no login:
  `COPILOT_PROVIDER_TYPE=anthropic`, `COPILOT_PROVIDER_BASE_URL` (the seat's URL, no `/v1`),
  `COPILOT_PROVIDER_API_KEY` (the seat's token); `COPILOT_OFFLINE=true`, else it calls out
  (authentication, telemetry, update, GitHub's MCP server). Its requests name no session.
- Hermetic: `COPILOT_HOME`, the XDG folders and `COPILOT_CACHE_HOME` in the session's own HOME;
  no update (`--no-auto-update`, `COPILOT_AUTO_UPDATE=false`), no built-in MCP servers, no
  remote. Its native binary unpacks 235 MB of its own code on first use into
  `COPILOT_PKG_CACHE_HOME`: unpacked once per machine and version (`COPILOT_SEA_EXTRACT_ONLY`)
  into a cache outside every cell (`warm_cache`), bound read-only into each.
- Tools `create {path, file_text}` (refused on a file that exists: an overwrite is an `edit` of
  the whole content), `edit {path, old_str, new_str}`, `view {path}`, `skill {skill}`, the bash
  family (excluded from every session, as claude's Bash is).
- What it appends to its system prompt: `$COPILOT_HOME/copilot-instructions.md` (personal
  instructions, `<custom_instruction>`); the arm's prompt, the task's appended prompt and the
  instruction every arm gets go there. It reads a CLAUDE.md or AGENTS.md in the workspace.
  Skills from `~/.agents/skills`; a Claude Code plugin with `--plugin-dir` (its skills as
  `plugin:skill`, its `.mcp.json` and its hooks; a hook's top-level `additionalContext` reaches
  the model, its `hookSpecificOutput` and plain stdout do not); MCP servers with
  `--additional-mcp-config`.
- It exits 0 when its model says it cannot act: an exit code proves nothing. On HTTP 500 it
  retries 5 times (about 19 s); on 400 it stops.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_ponybench.agents import copilot_stream
from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.common import OtherCli, appended, prompt_argument, session_env
from pytest_ponybench.agents.install import agent_placements, lay_arm
from pytest_ponybench.agents.streamread import bounded_lines
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.policy import AgentPolicy
from pytest_ponybench.core.records import CellError, ErrorKind
from pytest_ponybench.core.transcript import HookEvent, Transcript
from pytest_ponybench.isolation.confine import install_folder

__all__ = ["BASH_TOOLS", "CACHE_ENV", "Copilot", "INSTRUCTIONS", "cache_root", "warm_cache"]

PACKAGE = "@github/copilot"
INSTRUCTIONS = ".copilot/copilot-instructions.md"  # in the session's HOME
# Denied to every session, as claude's Bash is: the benchmark measures the code written.
BASH_TOOLS = ("bash", "read_bash", "stop_bash", "list_bash")
CACHE_ENV = "PONYBENCH_COPILOT_CACHE"  # where the unpacked packages are kept (a test's own)
_CLAUDE_ONLY = ("settings", "agents", "output-style")
_WARM_LOCK = threading.Lock()


def cache_root() -> Path:
    """The folder of the unpacked packages: $PONYBENCH_COPILOT_CACHE, else the user's cache."""
    given = os.environ.get(CACHE_ENV)
    if given:
        return Path(given)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ponybench" / "copilot"


def _version_of(binary: str) -> str:
    folder = install_folder(os.path.realpath(shutil.which(binary) or binary), (PACKAGE,))
    try:
        data = json.loads((folder / "package.json").read_text(encoding="utf-8")) if folder else {}
    except (OSError, ValueError):
        data = {}
    version = data.get("version") if isinstance(data, dict) else None
    return str(version) if isinstance(version, str) and version.strip() else "unknown"


def warm_cache(binary: str) -> Path:
    """The folder that holds this copilot's unpacked code (its COPILOT_PKG_CACHE_HOME), unpacked
    here once per machine and version: into a folder of its own, then renamed into place, so
    workers that warm it at once never see half of it."""
    version = _version_of(binary)
    done = cache_root() / version
    if (done / ".complete").is_file():
        return done
    with _WARM_LOCK:
        if (done / ".complete").is_file():
            return done
        done.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{version}-", dir=done.parent))
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(work)}
        env |= {"COPILOT_SEA_EXTRACT_ONLY": "1", "COPILOT_PKG_CACHE_HOME": str(work)}
        try:
            subprocess.run(
                [binary],
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=300,
                check=True,
            )
            (work / ".complete").write_text(version + "\n", encoding="utf-8")
            os.rename(work, done)
        except OSError:
            if not (done / ".complete").is_file():
                raise
        except subprocess.SubprocessError as exc:
            raise RuntimeError(f"copilot could not unpack its package into {work}: {exc}") from None
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return done


def _mcp_entries(config: Mapping[str, Any]) -> dict[str, Any]:
    servers = config.get("mcpServers")
    out: dict[str, Any] = {}
    for name, server in (servers if isinstance(servers, Mapping) else {}).items():
        if isinstance(server, Mapping):
            out[str(name)] = {"type": "local", **server, "tools": ["*"]}
    return out


class Copilot(OtherCli):
    """`copilot -p`, headless, logged out, its state in the session's own HOME."""

    name = "copilot"
    package = PACKAGE
    pinned = "1.0.102"
    label = "Copilot CLI"
    missing_result = "no result event"
    parse = staticmethod(copilot_stream.parse)

    def command(
        self, binary: str, spec: SessionSpec, arm: Arm, policy: AgentPolicy | None = None
    ) -> list[str]:
        """The session's command; its personal instructions (a CLAUDE.md placed @user, the
        arm's prompt, the task's, the instruction every arm gets) are written into its HOME."""
        policy = policy or AgentPolicy()
        texts = [
            p.path.read_text(encoding="utf-8").rstrip()
            for p in arm.of("claude-md")
            if p.scope == "user" and p.path
        ]
        instructions = spec.home / INSTRUCTIONS
        instructions.parent.mkdir(parents=True, exist_ok=True)
        instructions.write_text("\n\n".join([*texts, appended(arm, policy)]) + "\n", encoding="utf-8")
        prompt = prompt_argument(spec.prompt)
        cmd = [
            binary,
            "-p",
            prompt,
            "--model",
            spec.model,
            "--output-format",
            "json",
            "--allow-all-tools",
            "--no-ask-user",
            "--no-auto-update",
            "--no-color",
            "--no-remote",
            "--disable-builtin-mcps",
            "--disable-client-telemetry",
        ]
        for plugin in arm.plugin_dirs:
            cmd += ["--plugin-dir", str(plugin)]
        if servers := _mcp_entries(json.loads(arm.mcp_config or "{}")):
            cmd += ["--additional-mcp-config", json.dumps({"mcpServers": servers})]
        return [*cmd, "--excluded-tools", *BASH_TOOLS]

    def environment(self, spec: SessionSpec, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """Its own HOME, COPILOT_HOME and XDG folders, the unpacked package of this machine,
        offline mode with the gateway as its provider and the seat's token as its key."""
        env = session_env(spec, base)
        home = spec.home
        env.update(
            {
                "COPILOT_HOME": str(home / ".copilot"),
                "XDG_CONFIG_HOME": str(home / ".config"),
                "XDG_STATE_HOME": str(home / ".local" / "state"),
                "XDG_CACHE_HOME": str(home / ".cache"),
                "COPILOT_CACHE_HOME": str(home / ".cache" / "copilot"),
                "COPILOT_PKG_CACHE_HOME": str(warm_cache(self.binary)),
                "COPILOT_OFFLINE": "true",
                "COPILOT_AUTO_UPDATE": "false",
                "COPILOT_PROVIDER_TYPE": "anthropic",
            }
        )
        if spec.base_url:
            env["COPILOT_PROVIDER_BASE_URL"] = spec.base_url
        if spec.api_key:
            env["COPILOT_PROVIDER_API_KEY"] = spec.api_key
        return env

    def install(self, arm: Arm, workspace: Path, home: Path) -> dict[str, str]:
        """A CLAUDE.md into the workspace, skills into `~/.agents/skills` (a plugin comes with
        --plugin-dir; a CLAUDE.md placed @user joins the personal instructions)."""
        return lay_arm(arm, workspace, home, agent_placements(arm, None))

    def readable(self) -> list[Path]:
        return [warm_cache(self.binary)]

    def arm_refusal(self, arm: Arm) -> str | None:
        for part in arm.parts:
            if part.kind in _CLAUDE_ONLY:
                return f"a {part.kind} part is Claude Code's own; Copilot CLI has no equivalent"
        return None

    def not_applied(self, arm: Arm, transcript: Transcript) -> CellError | None:
        """A plugin whose skills the session did not list was not loaded."""
        init = transcript.init or {}
        listed = {str(s).split(":", 1)[0] for s in init.get("skills") or []}
        for part in arm.of("plugin"):
            if part.path is not None and (part.path / "skills").is_dir() and part.names[0] not in listed:
                return CellError(
                    ErrorKind.ARM, f"the arm's plugin {part.names[0]} was not loaded (no skill of it listed)"
                )
        return None

    def gateway_session(self, transcript: Transcript) -> str | None:
        return ""  # its requests name no session: its own are those naming none

    def hook_events(self, home: Path) -> list[HookEvent]:
        found: list[HookEvent] = []
        for log in sorted((home / ".copilot" / "session-state").glob("*/events.jsonl")):
            found += copilot_stream.hook_events(bounded_lines(log))
        return found
