"""What one cell's scripted agents are to do, and what the server keeps of the cell: plain data.

A harness registers a `CellScript` per session (its workspace, the good and bad files, the
reference's declared calls and reply, each turn's of a conversation); the agents of `agents` read
it, the server holds it in a `CellState` while the cell runs. In a conversation the harness says
which turn is played before each of its sessions (`CellScript.turn`); the agents answer that
turn's prompt with that turn's calls and reply, and write the files in the last turn.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench.core.graders.evidence import PATH_KEYS

__all__ = ["CellScript", "CellState", "Session", "resolve_call"]


@dataclass(frozen=True)
class Session:
    """What a scripted agent says and does besides writing its files (a reference's ref.toml):
    tool calls made first, one per turn, in order, with relative paths taken as the
    workspace's; and its final reply."""

    calls: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    reply: str | None = None


def resolve_call(tool: str, given: Mapping[str, Any], workspace: Path) -> tuple[str, dict[str, Any]]:
    """A declared call as the agent sends it: a relative path made absolute in the workspace,
    spelled as declared (`tests/./x.py` stays odd: graders must see through it)."""
    out = dict(given)
    for key in PATH_KEYS:
        value = out.get(key)
        if isinstance(value, str) and not os.path.isabs(value):
            out[key] = os.path.join(workspace, value)
    return tool, out


@dataclass
class CellScript:
    """What the scripted agents of one cell write, and where."""

    workspace: Path
    good: dict[str, bytes]
    bad: dict[str, bytes]
    log_path: Path | None = None
    good_session: Session = field(default_factory=Session)
    bad_session: Session = field(default_factory=Session)
    good_turns: tuple[Session, ...] = ()  # turns 2, 3, ... of a conversation
    bad_turns: tuple[Session, ...] = ()
    prompts: tuple[str, ...] = ()  # each turn's user message, turn 1's first
    turn: int = 1  # the turn being played, as the harness says between sessions

    def session(self, good: bool) -> Session:
        """What the good (or bad) reference says and does in the turn being played."""
        if self.turn == 1:
            return self.good_session if good else self.bad_session
        later = self.good_turns if good else self.bad_turns
        return later[self.turn - 2] if self.turn - 2 < len(later) else Session()

    def files(self, good: bool) -> dict[str, bytes]:
        """The reference's files, written in the conversation's last turn."""
        if self.turn < len(self.prompts):
            return {}
        return self.good if good else self.bad

    @property
    def prompt(self) -> str | None:
        """The user message of the turn being played (None: not known)."""
        return self.prompts[self.turn - 1] if 0 < self.turn <= len(self.prompts) else None


@dataclass
class CellState:
    """A registered cell while it runs: its script, and its request log unless that is a file."""

    script: CellScript
    cell_id: str = ""
    log: list[dict[str, Any]] = field(default_factory=list)
    first_at: float | None = None  # monotonic time of its first agent-loop request (holds)
