"""pytest-ponybench: benchmark Claude Code skills, plugins, prompts and settings with pytest.

The public face: what a benchmark project's own files name (its cell module, its conftest.py's
record hook). The wings behind it may move; these names stay here. Each is loaded on first use,
so importing any part of the package costs nothing more.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["Cell", "CellInvalid", "CellOutcome", "Incorrect", "Record", "Unsafe", "__version__"]

if TYPE_CHECKING:
    from pytest_ponybench.core.cell import Cell
    from pytest_ponybench.core.records import Record
    from pytest_ponybench.roles.outcome import CellInvalid, CellOutcome, Incorrect, Unsafe

# Where each public name lives (tests/unit/project/test_layout.py reads it to check the import
# directions).
PUBLIC = {
    "Cell": "pytest_ponybench.core.cell",
    "Record": "pytest_ponybench.core.records",
    "CellOutcome": "pytest_ponybench.roles.outcome",
    "CellInvalid": "pytest_ponybench.roles.outcome",
    "Incorrect": "pytest_ponybench.roles.outcome",
    "Unsafe": "pytest_ponybench.roles.outcome",
}


def __getattr__(name: str) -> Any:
    where = PUBLIC.get(name)
    if where is None:
        raise AttributeError(f"module 'pytest_ponybench' has no attribute {name!r}")
    return getattr(importlib.import_module(where), name)
