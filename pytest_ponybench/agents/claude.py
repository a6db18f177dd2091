"""Claude Code as an agent: its command for an arm, its environment, its arm files, its stream.

Facts this adapter relies on (claude 2.1.x): stream-json needs --verbose; a leftover CLAUDECODE
makes it refuse to start; as root bypassPermissions needs IS_SANDBOX=1; API errors arrive as a
result event with is_error and api_error_status while the exit code says little; under
bypassPermissions `--allowedTools` restricts nothing, `--tools` does; the stream shows every
hook's start and end only with `--include-hook-events` (else SessionStart's alone).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path

from pytest_ponybench.agents import claude_stream
from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.common import (
    DROP_ENV,
    ENV_ALLOW,
    ENV_ALLOW_PREFIX,
    NO_RUN,
    Cli,
    allowed_env,
    appended,
    session_env,
)
from pytest_ponybench.agents.install import lay_arm
from pytest_ponybench.agents.process import Run, version_line
from pytest_ponybench.core import armproof
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.policy import AgentPolicy
from pytest_ponybench.core.records import CellError, ErrorKind
from pytest_ponybench.core.transcript import HookEvent, Transcript
from pytest_ponybench.isolation.confine import CLI_PACKAGE

__all__ = [
    "API_ERROR_RE",
    "ClaudeCode",
    "DROP_ENV",
    "ENV_ALLOW",
    "ENV_ALLOW_PREFIX",
    "NO_RUN",
    "allowed_env",
    "tool_flags",
]

API_ERROR_RE = re.compile(r"^\s*API Error\b", re.IGNORECASE)


def tool_flags(policy: AgentPolicy) -> list[str]:
    """The task's tools as flags: Bash is refused to every session (the benchmark measures code
    written, not run) and the task's disallowed tools with it (names or rules, one argument
    each: a rule may hold a space); an allowed list is a whitelist of built-in tools, given to
    `--tools`, because under bypassPermissions `--allowedTools` restricts nothing (claude 2.1.332)."""
    flags = ["--disallowedTools", "Bash", *(t for t in policy.disallowed_tools if t != "Bash")]
    if policy.allowed_tools is not None:
        flags += ["--tools", ",".join(policy.allowed_tools)]
    return flags


class ClaudeCode(Cli):
    """The `claude` CLI, headless: `-p`, stream-json, bypassPermissions, one HOME per session."""

    name = "claude"
    package = CLI_PACKAGE
    pinned = "2.1.332"
    resumes = True  # `--resume`: a session id in its HOME, or a session file's path
    serves_mcp = True  # `--mcp-config`, once per config (claude 2.1.332 joins them)

    def version(self, binary: str) -> str | None:
        return version_line(binary)

    def command(
        self, binary: str, spec: SessionSpec, arm: Arm, policy: AgentPolicy | None = None
    ) -> list[str]:
        """The command of one agent session: the arm's flags, the task's policy, and one
        identical instruction appended last for every arm."""
        policy = policy or AgentPolicy()
        cmd = [
            binary,
            "-p",
            spec.prompt,
            "--model",
            spec.model,
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-hook-events",
            "--permission-mode",
            "bypassPermissions",
            "--setting-sources",
            arm.setting_sources,
            "--strict-mcp-config",
            *tool_flags(policy),
            "--max-turns",
            str(spec.max_turns),
            *arm.cli_args(),
            "--append-system-prompt",
            appended(arm, policy),
        ]
        if spec.max_budget_usd is not None:
            cmd += ["--max-budget-usd", f"{spec.max_budget_usd:g}"]
        if spec.mcp_servers:
            cmd += ["--mcp-config", json.dumps({"mcpServers": spec.mcp_servers}, sort_keys=True)]
        if spec.resume is not None:
            cmd += ["--resume", spec.resume]
        return cmd

    def continuation(self, spec: SessionSpec, transcript: Transcript) -> str | None:
        """The session's id: `--resume <id>` finds it in the cell's HOME. A session that resumed a
        file (a history) was written beside that file, where only its path finds it (claude
        2.1.332 looks for an id under the workspace's project folder alone); its id stays the
        same from turn to turn either way."""
        sid = transcript.session_id
        if not sid:
            return None
        if spec.resume is not None and os.path.isabs(spec.resume):
            return os.path.join(os.path.dirname(spec.resume), f"{sid}.jsonl")
        return sid

    def judge_command(
        self, binary: str, model: str, system: str, *, max_budget_usd: float | None = None
    ) -> list[str]:
        """A judge's session: the judge's system prompt in place of Claude Code's, no tools, no
        settings, MCP servers, skills or slash commands, one turn, no session kept; the prompt
        comes on stdin."""
        cmd = [
            binary,
            "-p",
            "--model",
            model,
            "--output-format",
            "stream-json",
            "--verbose",
            "--max-turns",
            "1",
            "--tools",
            "",
            "--system-prompt",
            system,
            "--setting-sources",
            "",
            "--strict-mcp-config",
            "--disable-slash-commands",
            "--no-session-persistence",
        ]
        if max_budget_usd is not None:
            cmd += ["--max-budget-usd", f"{max_budget_usd:g}"]
        return cmd

    def environment(self, spec: SessionSpec, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment of one session: the allowlist, the task's own variables (names
        checked by core.policy), its own home and config, no user settings, the gateway as its
        API with the session's own token. CLAUDE.md files are read only when memory is on (an
        arm that places one); the harness's own variables always win."""
        env = session_env(spec, base)
        home = spec.home
        env.update(
            {
                "CLAUDE_CONFIG_DIR": str(home / ".claude"),
                "CLAUDE_CODE_DISABLE_CLAUDE_MDS": "1",
                "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_AUTOUPDATER": "1",
            }
        )
        # A user's own API_TIMEOUT_MS wins; else the CLI gives up on a silent API before the
        # cell timeout, so a hang ends as an API error with a reason rather than as a kill.
        env.setdefault("API_TIMEOUT_MS", str(spec.api_timeout_ms))
        if spec.memory:
            del env["CLAUDE_CODE_DISABLE_CLAUDE_MDS"]  # CLAUDE.md read for this arm only
        if os.geteuid() == 0:
            env["IS_SANDBOX"] = "1"  # else bypassPermissions is refused as root
        # The gateway is the session's API, offline or live; its token is the only key it holds.
        if spec.base_url:
            env["ANTHROPIC_BASE_URL"] = spec.base_url
        if spec.api_key:
            env["ANTHROPIC_API_KEY"] = spec.api_key
        # Offline the harness decides about retries; live the CLI retries a little itself.
        env["CLAUDE_CODE_MAX_RETRIES"] = "0" if spec.offline else "2"
        (home / ".claude").mkdir(parents=True, exist_ok=True)
        return env

    def install(self, arm: Arm, workspace: Path, home: Path) -> dict[str, str]:
        """The arm's files as claude reads them: a CLAUDE.md into the workspace; skills, agents,
        an output style into the session's own `~/.claude` ({relpath: sha256} of the workspace's)."""
        return lay_arm(arm, workspace, home)

    def readable(self) -> list[Path]:
        return []

    def arm_refusal(self, arm: Arm) -> str | None:
        return None  # every arm kind is claude's own

    def policy_refusal(self, policy: AgentPolicy) -> str | None:
        return None

    def parse(self, stream: Path) -> Transcript:
        return claude_stream.parse(stream)

    def gateway_session(self, transcript: Transcript) -> str | None:
        return transcript.session_id  # its requests carry X-Claude-Code-Session-Id

    def hook_events(self, home: Path) -> list[HookEvent]:
        return []  # stream-json shows every hook

    def invalid(self, transcript: Transcript, run: Run, stderr_tail: str) -> CellError | None:
        """Why a session measured nothing about the arm (infrastructure, not quality), or None."""
        if run.start_error:
            return CellError(ErrorKind.START, f"claude {run.start_error}")
        res = transcript.result
        if res is None:
            if run.timed_out:
                if transcript.assistant_turns:
                    return None  # the agent was working: a timeout, scored on what it wrote
                return CellError(
                    ErrorKind.API, "no reply from the model before the cell timeout (no result event)"
                )
            detail = f": {stderr_tail}" if stderr_tail else ""
            return CellError(
                ErrorKind.API, f"no result event (claude exited with code {run.exit_code}){detail}"
            )
        status = res.get("api_error_status")
        text = str(res.get("result") or "")
        if status is not None or res.get("terminal_reason") == "api_error":
            status_text = status if status is not None else "(no status)"
            return CellError(ErrorKind.API, f"API error {status_text}: {text[:200]}".strip())
        if API_ERROR_RE.match(text):
            return CellError(ErrorKind.API, text[:200])
        if res.get("is_error") and res.get("subtype") == "success":
            return CellError(ErrorKind.API, f"session error: {text[:200]}")
        return None

    def api_error_status(self, transcript: Transcript) -> int | None:
        """The HTTP status of the API error the session ended on, as the CLI reports it."""
        status = (transcript.result or {}).get("api_error_status")
        return status if isinstance(status, int) and not isinstance(status, bool) else None

    def not_applied(self, arm: Arm, transcript: Transcript) -> CellError | None:
        """A plugin the CLI could not load, or an MCP server that did not connect, measured the
        baseline under the arm's name: invalid."""
        init = transcript.init or {}
        errors = (
            [e for e in init.get("plugin_errors") or [] if isinstance(e, dict)] if arm.has("plugin") else []
        )
        if errors:
            return CellError(
                ErrorKind.ARM, f"the arm's plugin was not loaded: {errors[0].get('message') or errors[0]}"
            )
        if (
            arm.has("mcp")
            and transcript.init is not None
            and (down := armproof.connection_problems(arm, init))
        ):
            return CellError(ErrorKind.ARM, f"the arm's MCP server was not applied: {down[0]}")
        return None
