"""What every agent CLI adapter provides.

One adapter per CLI (claude, opencode, copilot, codex) registers itself by name in
`agents.registry`. The cell, the judge and the pre-flight start a session through one launcher
(`agents.launch`) with the adapter's command and environment; the session's stream is parsed
once, by the adapter, into a `core.transcript.Transcript` that every reader uses. Nothing
outside an adapter knows a CLI's flags, its config files or its stream format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pytest_ponybench.agents.dialect import Dialect
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.policy import AgentPolicy
from pytest_ponybench.core.records import CellError
from pytest_ponybench.core.transcript import HookEvent, Transcript

if TYPE_CHECKING:
    from pytest_ponybench.agents.process import Run
    from pytest_ponybench.core.tasks import Task

__all__ = ["Agent", "Dialect", "SessionSpec", "task_refusal"]


@dataclass(frozen=True)
class SessionSpec:
    """One headless session to start, as every adapter turns it into argv and environment."""

    prompt: str
    model: str
    home: Path
    max_turns: int = 1
    base_url: str | None = None  # the model gateway, as the session reaches it
    api_key: str | None = None  # the session's own gateway token (never a real credential)
    offline: bool = False
    api_timeout_ms: int = 600_000
    max_budget_usd: float | None = None
    memory: bool = False  # the arm places a CLAUDE.md (or the CLI's equivalent) to be read
    task_env: Mapping[str, str] = field(default_factory=dict)
    workspace: Path | None = None  # the session's cwd, and its PWD (a CLI may read either)
    # The conversation this session continues: the adapter's `continuation` of the turn before,
    # or the path of a history file the first turn resumes; None: a new conversation.
    resume: str | None = None
    # Stdio MCP servers the task brings (its mocks' stand-ins), as an MCP config's mcpServers.
    mcp_servers: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


class Agent(Protocol):
    """One agent CLI. Adapters hold no state of a session; the registry hands out one per name."""

    name: str  # as --agents names it
    # Its API has no live upstream at the gateway (Codex's Responses API): offline models only.
    offline_only: bool
    resumes: bool  # it continues a conversation (a task's turns, its history): `continuation`
    serves_mcp: bool  # it starts the stdio MCP servers a task brings (`SessionSpec.mcp_servers`)

    # What the adapter's CLI is as installed (`agents.common.Cli` derives them from its name and
    # its npm package).
    @property
    def binary(self) -> str:
        """The command's default name on PATH."""
        ...

    @property
    def dialect(self) -> Dialect:
        """Its names for the tools the offline agents call."""
        ...

    @property
    def stream_file(self) -> str:
        """What its stream is kept as in the cell's folder."""
        ...

    @property
    def packages(self) -> tuple[str, ...]:
        """Its npm packages: the install a confined session reads."""
        ...

    @property
    def install_hint(self) -> str:
        """The pinned install command, for the error when it is missing."""
        ...

    def version(self, binary: str) -> str | None:
        """The CLI's version line, or None when it does not start."""
        ...

    def command(
        self, binary: str, spec: SessionSpec, arm: Arm, policy: AgentPolicy | None = None
    ) -> list[str]:
        """The argv of one headless agent session: the arm's part, the task's tools, the spec."""
        ...

    def environment(self, spec: SessionSpec, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """The session's environment: an allowlist of base (the harness's by default), its own
        HOME and config, the gateway and its token as its only API, no user config, no
        telemetry, no update check, no downloads; never a credential of the harness."""
        ...

    def install(self, arm: Arm, workspace: Path, home: Path) -> dict[str, str]:
        """The arm's files into the session's workspace and HOME as this CLI reads them;
        {relpath: sha256} of those laid into the workspace (they join the seeded base)."""
        ...

    def readable(self) -> list[Path]:
        """Folders of the host a session of this CLI reads besides its install (bound
        read-only), made ready here when they are not (Copilot's unpacked package)."""
        ...

    def arm_refusal(self, arm: Arm) -> str | None:
        """Why this CLI cannot run the arm (a kind it has no equivalent for), or None; the plan
        refuses the run before any cell."""
        ...

    def policy_refusal(self, policy: AgentPolicy) -> str | None:
        """Why this CLI cannot keep a task's agent policy, or None."""
        ...

    def parse(self, stream: Path) -> Transcript:
        """The session's stream, read line by line (never whole), into one Transcript."""
        ...

    def invalid(self, transcript: Transcript, run: Run, stderr_tail: str) -> CellError | None:
        """Why the session measured nothing about the arm (infrastructure), or None."""
        ...

    def api_error_status(self, transcript: Transcript) -> int | None:
        """The HTTP status of the API error the session ended on, as the CLI says."""
        ...

    def not_applied(self, arm: Arm, transcript: Transcript) -> CellError | None:
        """Why the arm did not reach the session (its plugin not loaded, ...), or None."""
        ...

    def gateway_session(self, transcript: Transcript) -> str | None:
        """How the gateway's log names this session's own requests (the rest in the cell are
        side calls): its session id; "" for a CLI whose requests name none; None when it is
        not known (every request is then the session's)."""
        ...

    def hook_events(self, home: Path) -> list[HookEvent]:
        """Hooks the session ran that its stream does not show, from what the CLI keeps in its
        HOME (read by the pre-flight's probe, never by a cell)."""
        ...

    def continuation(self, spec: SessionSpec, transcript: Transcript) -> str | None:
        """What the next turn's `SessionSpec.resume` is after this session, or None when the
        conversation cannot go on (a CLI that cannot resume; a session that never started)."""
        ...


def task_refusal(agent: Agent, task: Task) -> str | None:
    """Why this agent cannot run the task's cells (a conversation without a way to continue
    one, MCP mocks without a way to start them), or None."""
    if task.resumes and not agent.resumes:
        what = "turns ([[turns]])" if task.turns else "an earlier conversation (history)"
        return (
            f"task {task.id} has {what}, and the agent {agent.name} cannot continue a conversation "
            "(resume a session): leave the task out (--tasks) or run it with an agent that can"
        )
    if task.mocks is not None and not agent.serves_mcp:
        return (
            f"task {task.id} has MCP mocks (mocks/), and the agent {agent.name} cannot start the "
            "stdio MCP servers that answer for them: leave the task out (--tasks) or run it with an "
            "agent that can"
        )
    return None
