"""Where this package lies: one constant for every place that means it, and where the data it
ships lies (the built-in suite, its fixtures, the examples).

Two of its uses decide what confined code cannot see (this package is hidden where it lies
inside a bound folder, site-packages say), so a module that moves must not change it;
`tests/unit/project/test_layout.py` holds the hidden paths to this folder.

The shipped data are top-level folders of the source tree (`benchmarks/tasks`, `fixtures`,
`examples`), kept there once. `setup.py` copies them into the package when a wheel is built
(`suite/tasks`, `suite/fixtures`, `examples`); a source checkout (an editable install) reads
them where they are.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["EXAMPLES", "PACKAGE_ROOT", "PROBES", "SUITE", "SUITE_FIXTURES", "SUITE_TASKS"]

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
PROBES = PACKAGE_ROOT / "_probe"  # the probe, the exec shim and the warm scorer's source
# The package `pytest --pyargs pytest_ponybench.suite` collects: the built-in suite's cell module.
SUITE = PACKAGE_ROOT / "suite"


def _shipped(built: Path, checkout: Path) -> Path:
    """The folder inside an installed package, else the source checkout's own."""
    return checkout if not built.is_dir() and checkout.is_dir() else built


SUITE_TASKS = _shipped(SUITE / "tasks", PACKAGE_ROOT.parent / "benchmarks" / "tasks")
SUITE_FIXTURES = _shipped(SUITE / "fixtures", PACKAGE_ROOT.parent / "fixtures")
EXAMPLES = _shipped(PACKAGE_ROOT / "examples", PACKAGE_ROOT.parent / "examples")
