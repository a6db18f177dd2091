"""Hook specifications other plugins and a benchmark project's conftest.py can implement.

Added to pytest's hook registry by `plugin.pytest_addhooks`, as xdist does with its newhooks.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pytest_ponybench.core.cell import Cell
    from pytest_ponybench.core.records import Record

__all__ = ["pytest_ponybench_arms", "pytest_ponybench_record"]


@pytest.hookspec
def pytest_ponybench_record(cell: Cell, record: Record, cell_dir: Path) -> dict[str, Any] | None:
    """Add metrics to one finished cell's record.

    Called in the process that ran (or rescored) the cell, after scoring and before the record is
    written, with the cell's kept folder: `cell_dir / "workspace"` is what the agent left (a git
    repository whose first commit is the seeded base) and `cell_dir / "claude.jsonl"` the
    session's stream. Return a dict of JSON-serializable values; it is merged into the record's
    `extra` field. Never import or run the workspace's code here: it is untrusted. An exception
    is recorded in `extra` under `hook_error` and does not lose the cell.
    """


@pytest.hookspec
def pytest_ponybench_arms(config: pytest.Config) -> list[str] | None:
    """Add arms programmatically: return specs in the `--arm` form (`NAME=plugin:PATH`,
    `NAME=prompt:TEXT`, `NAME=prompt-file:PATH`, `NAME=settings:JSON_OR_PATH`).

    Called once, while the plan is resolved, before any cell: a bad spec is a usage error that
    names the hook, and a name declared twice is refused.
    """
