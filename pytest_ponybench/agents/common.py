"""What every agent CLI's session shares, whichever adapter starts it.

The instruction appended for every arm alike (the benchmark measures the code written, not its
execution), the allowlist of the harness's environment a session may see, the text an adapter
appends to its CLI's system prompt (the arm's prompt, the task's `append_system_prompt` and that
instruction, in this order), what every adapter's CLI is as installed (one pinned npm package,
its command and its stream named after the adapter), and what the adapters of CLIs other than
claude say alike: a task policy naming Claude Code's tools refused, and a session that measured
nothing read from the result their stream parser made.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.dialect import DIALECTS, Dialect
from pytest_ponybench.agents.process import Run, version_line
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.policy import AgentPolicy
from pytest_ponybench.core.records import CellError, ErrorKind
from pytest_ponybench.core.transcript import HookEvent, Transcript

__all__ = [
    "Cli",
    "OtherCli",
    "DROP_ENV",
    "ENV_ALLOW",
    "ENV_ALLOW_PREFIX",
    "NO_RUN",
    "allowed_env",
    "api_error_status",
    "appended",
    "prompt_argument",
    "result_invalid",
    "session_env",
    "unmapped_policy",
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
# Never, even from an allowed family: a parent Claude Code session's markers. (No ANTHROPIC_*,
# CLAUDE_CODE_*, OPENCODE_* or COPILOT_* variable of the harness reaches a session at all: the
# gateway holds the credential and every setting that would change the CLI between cells stays
# out.)
DROP_ENV = re.compile(r"^(CLAUDECODE|CLAUDE_CODE_ENTRYPOINT|CLAUDE_CODE_SSE_PORT|CLAUDE_CONFIG_DIR)$")


def allowed_env(name: str) -> bool:
    """Whether a variable of the harness's environment may reach an agent's session."""
    return not DROP_ENV.match(name) and (name in ENV_ALLOW or name.startswith(ENV_ALLOW_PREFIX))


def session_env(spec: SessionSpec, base: Mapping[str, str] | None) -> dict[str, str]:
    """The allowlisted part of base (the harness's environment by default), the task's own
    variables (names checked by core.policy), then what every CLI's session gets alike: its own
    HOME (made here) and the workspace as PWD (a CLI may read it rather than its cwd). The
    adapter adds its own over them."""
    src = dict(os.environ if base is None else base)
    env = {k: v for k, v in src.items() if allowed_env(k)}
    env.update(spec.task_env)
    spec.home.mkdir(parents=True, exist_ok=True)
    env["HOME"] = str(spec.home)
    if spec.workspace is not None:
        env["PWD"] = str(spec.workspace)
    return env


def prompt_argument(prompt: str) -> str:
    """The prompt as an argument of its own: one that starts with `-` gets a space in front, so
    the CLI's option parser never reads it as a flag."""
    return f" {prompt}" if prompt.startswith("-") else prompt


def appended(arm: Arm, policy: AgentPolicy) -> str:
    """What every session gets after its CLI's own system prompt: the arm's prompt, the task's
    appended prompt, then NO_RUN."""
    texts = [t.rstrip() for t in (arm.prompt, policy.append_system_prompt) if t]
    return "\n\n".join([*texts, NO_RUN])


def unmapped_policy(policy: AgentPolicy, cli: str) -> str | None:
    """Why a task's tool policy cannot run on a CLI other than claude (its names are Claude
    Code's tools), or None when the task sets none."""
    tools = ("allowed_tools", policy.allowed_tools), ("disallowed_tools", policy.disallowed_tools)
    given = [k for k, v in tools if v]
    if given:
        return f"{' and '.join(given)} name Claude Code's tools; {cli}'s are not mapped"
    return None


def result_invalid(
    cli: str, missing: str, transcript: Transcript, run: Run, stderr_tail: str
) -> CellError | None:
    """Why a session measured nothing, from the result its parser made: it did not start, it
    ended with no result (`missing` names what its stream lacked) unless it timed out while
    working, or its result is the API's error."""
    if run.start_error:
        return CellError(ErrorKind.START, f"{cli} {run.start_error}")
    res = transcript.result
    if res is None:
        if run.timed_out and transcript.assistant_turns:
            return None  # the agent was working: a timeout, scored on what it wrote
        detail = f": {stderr_tail}" if stderr_tail else ""
        return CellError(ErrorKind.API, f"{missing} ({cli} exited with code {run.exit_code}){detail}")
    if res.get("is_error"):
        status = res.get("api_error_status")
        text = res.get("result")
        if not text and res.get("exitCode") is not None:
            text = f"exit code {res.get('exitCode')}"
        return CellError(ErrorKind.API, f"API error {status or '(no status)'}: {str(text)[:200]}")
    return None


def api_error_status(transcript: Transcript) -> int | None:
    """The HTTP status of the API error that ended the session, as its parser read it."""
    status = (transcript.result or {}).get("api_error_status")
    return status if isinstance(status, int) and not isinstance(status, bool) else None


class Cli:
    """What an adapter's CLI is on the machine, from its name and its one npm package: the
    command is the name, the stream is kept as `<name>.jsonl`, the tool names are the name's
    dialect (`DIALECTS`), and the install the error names is the version the adapter's facts
    were measured against."""

    name: str  # as --agents names it
    package: str  # its npm package
    pinned: str  # the package's version the adapter was written against
    offline_only = False

    @property
    def binary(self) -> str:
        return self.name

    @property
    def stream_file(self) -> str:
        return f"{self.name}.jsonl"

    @property
    def dialect(self) -> Dialect:
        return DIALECTS[self.name]

    @property
    def packages(self) -> tuple[str, ...]:
        return (self.package,)

    @property
    def install_hint(self) -> str:
        return f"npm install -g {self.package}@{self.pinned}"


class OtherCli(Cli):
    """What the CLIs beside Claude Code share: no conversation continued and no MCP mocks
    served (a task with either is refused for them before any cell), a task's tool policy
    refused (its names are Claude Code's), a session with no result or an API error's invalid,
    the API error read from the transcript, the version from `--version`, no hooks of their own
    and nothing to read outside the cell (unless the adapter says otherwise), and what reached
    the model proven at the gateway by the pre-flight."""

    label: str  # the CLI's name in a refusal
    missing_result: str  # what its stream lacks when the session ended with no result
    resumes = False
    serves_mcp = False

    def version(self, binary: str) -> str | None:
        return version_line(binary)

    def readable(self) -> list[Path]:
        return []

    def policy_refusal(self, policy: AgentPolicy) -> str | None:
        return unmapped_policy(policy, self.label)

    def invalid(self, transcript: Transcript, run: Run, stderr_tail: str) -> CellError | None:
        return result_invalid(self.name, self.missing_result, transcript, run, stderr_tail)

    def gateway_session(self, transcript: Transcript) -> str | None:
        return transcript.session_id  # its requests carry the session's id

    def hook_events(self, home: Path) -> list[HookEvent]:
        return []

    def continuation(self, spec: SessionSpec, transcript: Transcript) -> str | None:
        return None

    def api_error_status(self, transcript: Transcript) -> int | None:
        return api_error_status(transcript)

    def not_applied(self, arm: Arm, transcript: Transcript) -> CellError | None:
        return None
