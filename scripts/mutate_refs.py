"""Mutation testing of this repository's shipped tasks: `ponybench mutate` pointed at
benchmarks/tasks and fixtures/ wherever it is run from (CI runs it with --changed-since).

``python scripts/mutate_refs.py [--tasks a,b] [--changed-since GITREF] [--jobs 2] [--list]``;
every option is `ponybench mutate`'s (pytest_ponybench/mutation, docs/tasks.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

from pytest_ponybench.cli import main

REPO = Path(__file__).resolve().parents[1]


def run(argv: list[str]) -> int:
    given = {a.split("=", 1)[0] for a in argv}
    folders = [
        *(["--tasks-dir", str(REPO / "benchmarks" / "tasks")] if "--tasks-dir" not in given else []),
        *(["--fixtures-dir", str(REPO / "fixtures")] if "--fixtures-dir" not in given else []),
    ]
    return main(["mutate", *folders, *argv])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
