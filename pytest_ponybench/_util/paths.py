"""Where this package lies: one constant for every place that means it.

Two of its uses decide what confined code cannot see (this package is hidden where it lies
inside a bound folder, site-packages say), so a module that moves must not change it;
`tests/unit/test_layout.py` holds the hidden paths to this folder.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["PACKAGE_ROOT", "PROBES"]

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
PROBES = PACKAGE_ROOT / "_probe"  # the probe, the exec shim and the warm scorer's source
