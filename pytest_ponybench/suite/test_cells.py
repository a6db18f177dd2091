"""The benchmark grid: pytest-ponybench parametrizes `ponybench_cell` over tasks x arms x
models x runs and runs each cell in the fixture; this test asserts the outcome.

The built-in suite's cell module, and the one `ponybench init` copies into a project."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_ponybench import CellOutcome

__all__ = ["test_cell"]


def test_cell(ponybench_cell: CellOutcome) -> None:
    ponybench_cell.assert_passed()
