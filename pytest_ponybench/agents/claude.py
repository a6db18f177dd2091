"""Claude Code as an agent: its command for an arm, its environment, its arm files, its stream.

Facts this adapter relies on (claude 2.1.x): stream-json needs --verbose; a leftover CLAUDECODE
makes it refuse to start; as root bypassPermissions needs IS_SANDBOX=1; API errors arrive as a
result event with is_error and api_error_status while the exit code says little; under
bypassPermissions `--allowedTools` restricts nothing, `--tools` does.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from pytest_ponybench.agents import claude_stream
from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.dialect import CLAUDE
from pytest_ponybench.agents.install import lay_arm
from pytest_ponybench.agents.process import Run, version_line
from pytest_ponybench.core import armproof
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.policy import AgentPolicy
from pytest_ponybench.core.records import CellError, ErrorKind
from pytest_ponybench.core.transcript import Transcript

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

# Appended to every arm's system prompt, identically: the benchmark measures the code written,
# not its execution, and an agent that starts servers or installs packages measures flailing.
NO_RUN = (
    "Write the implementation (and tests if you normally would for a change like this). "
    "Do not run servers, install dependencies or open a browser to verify: write the code "
    "and stop. Only the files you write are measured."
)

# The environment of a session is an allowlist: what the CLI needs, never the harness's whole
# environment (AWS_*, GITHUB_TOKEN and the like would be readable by the agent). A denylist
# always misses the next credential name.
# No proxy and no CA bundle: the gateway is a session's only way out (and it uses the
# harness's proxy itself).
ENV_ALLOW = frozenset(
    {
        "PATH",
        "LANG",
        "LANGUAGE",
        "TERM",
        "TZ",
        "API_TIMEOUT_MS",
        # this project's tests find every process a cell started by this tag; it carries nothing
        "PONYBENCH_TEST_TAG",
    }
)
ENV_ALLOW_PREFIX = ("LC_",)
# Never, even from an allowed family: a parent Claude Code session's markers. (No ANTHROPIC_*
# or CLAUDE_CODE_* variable of the harness reaches a session at all: the gateway holds the
# credential and every setting that would change the CLI between cells stays out.)
DROP_ENV = re.compile(r"^(CLAUDECODE|CLAUDE_CODE_ENTRYPOINT|CLAUDE_CODE_SSE_PORT|CLAUDE_CONFIG_DIR)$")
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


def allowed_env(name: str) -> bool:
    """Whether a variable of the harness's environment may reach a claude session."""
    return not DROP_ENV.match(name) and (name in ENV_ALLOW or name.startswith(ENV_ALLOW_PREFIX))


class ClaudeCode:
    """The `claude` CLI, headless: `-p`, stream-json, bypassPermissions, one HOME per session."""

    name = "claude"
    binary = "claude"
    dialect = CLAUDE
    stream_file = "claude.jsonl"

    def version(self, binary: str) -> str | None:
        return version_line(binary)

    def command(
        self, binary: str, spec: SessionSpec, arm: Arm, policy: AgentPolicy | None = None
    ) -> list[str]:
        """The command of one agent session: the arm's flags, the task's policy, and one
        identical instruction appended last for every arm."""
        policy = policy or AgentPolicy()
        texts = [t.rstrip() for t in (arm.prompt, policy.append_system_prompt) if t]
        cmd = [
            binary,
            "-p",
            spec.prompt,
            "--model",
            spec.model,
            "--output-format",
            "stream-json",
            "--verbose",
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
            "\n\n".join([*texts, NO_RUN]),
        ]
        if spec.max_budget_usd is not None:
            cmd += ["--max-budget-usd", f"{spec.max_budget_usd:g}"]
        return cmd

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
        src = dict(os.environ if base is None else base)
        env = {k: v for k, v in src.items() if allowed_env(k)}
        env.update(spec.task_env)
        home = spec.home
        home.mkdir(parents=True, exist_ok=True)
        env.update(
            {
                "HOME": str(home),
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

    def parse(self, stream: Path) -> Transcript:
        return claude_stream.parse(stream)

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
