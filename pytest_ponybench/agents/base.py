"""What every agent CLI adapter provides.

One adapter per CLI (claude today) registers itself by name in `agents.registry`. The cell, the
judge and the pre-flight start a session through one launcher (`agents.launch`) with the
adapter's command and environment; the session's stream is parsed once, by the adapter, into a
`core.transcript.Transcript` that every reader uses. Nothing outside an adapter knows a CLI's
flags or its stream format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pytest_ponybench.agents.dialect import Dialect
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.policy import AgentPolicy
from pytest_ponybench.core.records import CellError
from pytest_ponybench.core.transcript import Transcript

if TYPE_CHECKING:
    from pytest_ponybench.agents.process import Run

__all__ = ["Agent", "Dialect", "SessionSpec"]


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


class Agent(Protocol):
    """One agent CLI. Adapters hold no state of a session; the registry hands out one per name."""

    name: str  # as --agents names it
    binary: str  # the command's default name on PATH
    dialect: Dialect
    stream_file: str  # what its stream is kept as in the cell's folder

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
