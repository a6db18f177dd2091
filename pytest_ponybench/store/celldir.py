"""One cell's folder in the run dir, `cells/<cell-id>/`, and the names of what it keeps.

Every reader and writer of a cell folder (the session, rescore, the report, merge, the retry
loop) names its files through this class, so a file is renamed in one place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CellDir"]


class _In:
    """The path of one file or folder of a cell's folder, by its name: read on a CellDir."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, cell: CellDir, owner: type[CellDir]) -> Path:
        return cell.path / self.name


@dataclass(frozen=True)
class CellDir:
    path: Path

    PROMPT = "prompt.md"  # the task's prompt, as the report's transcript starts with it
    SEEDED = "seeded.json"  # each seeded file's sha256, so rescore knows what was seeded
    STREAM = "claude.jsonl"  # the CLI's stream-json output (claude's; another agent's by its name)
    STDERR = "claude.stderr"
    # Every agent's stream as its adapter names it (`Agent.stream_file`), claude's first.
    STREAMS = ("claude.jsonl", "opencode.jsonl", "copilot.jsonl", "codex.jsonl")
    REQUESTS = "offline_requests.jsonl"  # what the offline server was asked
    GATEWAY = "gateway.jsonl"  # every model request of the cell as the gateway metered it
    WORKSPACE = "workspace"  # the agent's workspace as it left it
    # The harness's own copy of the seeded base repository, which the agent never saw (every
    # diff reads it), beside the kept workspace whose `.git` the agent may have rewritten.
    BASE_GIT = "base.git"
    JUDGE = "judge"  # one folder per judge call: its prompt, stream and stderr
    TURNS = "turns"  # a conversation's later sessions: turns/<turn>.<play>/, each a stream and stderr

    prompt = _In(PROMPT)
    seeded = _In(SEEDED)
    requests = _In(REQUESTS)
    gateway = _In(GATEWAY)
    workspace = _In(WORKSPACE)
    base_git = _In(BASE_GIT)
    judge = _In(JUDGE)

    @property
    def stream(self) -> Path:
        """The session's stream, whichever agent wrote it (claude's name when there is none)."""
        found = next((self.path / n for n in self.STREAMS if (self.path / n).exists()), None)
        return found or self.path / self.STREAM

    @property
    def stderr(self) -> Path:
        return self.stream.with_suffix(".stderr")

    def stream_named(self, name: str) -> Path:
        """Where an agent whose stream is called name writes it (`Agent.stream_file`)."""
        return self.path / name

    def play(self, turn: int, play: int = 1) -> CellDir:
        """Where one session of a conversation keeps its stream and stderr: the cell's own folder
        for the first (so a cell of one turn is as it always was), `turns/<turn>.<play>/` after."""
        if (turn, play) == (1, 1):
            return self
        return CellDir(self.path / self.TURNS / f"{turn}.{play}")

    def read_seeded(self) -> dict[str, Any]:
        """The seeded files' manifest; {} for a cell of an older version that kept none."""
        if not self.seeded.exists():
            return {}
        data = json.loads(self.seeded.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}

    def fresh(self) -> int:
        """Make the folder for a new attempt and return its number; an earlier attempt's folder
        is kept as `<id>~N`."""
        attempt = 1
        if self.path.exists():
            while self.path.with_name(f"{self.path.name}~{attempt}").exists():
                attempt += 1
            self.path.rename(self.path.with_name(f"{self.path.name}~{attempt}"))
            attempt += 1
        self.path.mkdir(parents=True)
        return attempt
