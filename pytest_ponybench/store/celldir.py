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


@dataclass(frozen=True)
class CellDir:
    path: Path

    PROMPT = "prompt.md"  # the task's prompt, as the report's transcript starts with it
    SEEDED = "seeded.json"  # each seeded file's sha256, so rescore knows what was seeded
    STREAM = "claude.jsonl"  # the CLI's stream-json output
    STDERR = "claude.stderr"
    REQUESTS = "offline_requests.jsonl"  # what the offline server was asked
    GATEWAY = "gateway.jsonl"  # every model request of the cell as the gateway metered it
    WORKSPACE = "workspace"  # the agent's workspace as it left it
    # The harness's own copy of the seeded base repository, which the agent never saw (every
    # diff reads it), beside the kept workspace whose `.git` the agent may have rewritten.
    BASE_GIT = "base.git"
    JUDGE = "judge"  # one folder per judge call: its prompt, stream and stderr

    @property
    def prompt(self) -> Path:
        return self.path / self.PROMPT

    @property
    def seeded(self) -> Path:
        return self.path / self.SEEDED

    @property
    def stream(self) -> Path:
        return self.path / self.STREAM

    @property
    def stderr(self) -> Path:
        return self.path / self.STDERR

    @property
    def requests(self) -> Path:
        return self.path / self.REQUESTS

    @property
    def gateway(self) -> Path:
        return self.path / self.GATEWAY

    @property
    def workspace(self) -> Path:
        return self.path / self.WORKSPACE

    @property
    def base_git(self) -> Path:
        return self.path / self.BASE_GIT

    @property
    def judge(self) -> Path:
        return self.path / self.JUDGE

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
