"""pytest entry point of pytest-ponybench (work in progress)."""

from __future__ import annotations
