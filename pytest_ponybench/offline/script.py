"""What one cell's scripted agents are to do, and what the server keeps of the cell: plain data.

A harness registers a `CellScript` per session (its workspace, the good and bad files, the
reference's declared calls and reply); the agents of `agents` read it, the server holds it in a
`CellState` while the cell runs.
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


@dataclass
class CellState:
    """A registered cell while it runs: its script, and its request log unless that is a file."""

    script: CellScript
    cell_id: str = ""
    log: list[dict[str, Any]] = field(default_factory=list)
    first_at: float | None = None  # monotonic time of its first agent-loop request (holds)
