"""Pairs stay together under xdist: a scheduler of our own, through xdist's scheduler hook.

The arms of one (task, model, run) block must run on one worker, back to back, in the grid's
interleaved order, so they meet the same API conditions. xdist's LoadScopeScheduling already
hands out whole scopes (work units that run on one worker, in collection order); this class
only says what a scope is: a cell's block. Unlike `--dist loadgroup`, it needs no `@group`
suffix on node ids (which newer pytest no longer lets a plugin add; pytest-xdist #1386), so
node ids stay the cell ids, on every pytest and xdist the package allows.

Imported only where xdist runs (the controller of a distributed session).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

__all__ = ["BlockScheduling"]


class BlockScheduling(LoadScopeScheduling):  # type: ignore[misc]
    """LoadScopeScheduling whose scope of a cell's test is its block."""

    def __init__(self, config: pytest.Config, log: Any, block_of: Callable[[str], str | None]) -> None:
        super().__init__(config, log)
        self._block_of = block_of

    def _split_scope(self, nodeid: str) -> str:
        block = self._block_of(nodeid)
        return f"ponybench-block:{block}" if block is not None else str(super()._split_scope(nodeid))
