"""pytest-ponybench: benchmark Claude Code skills, plugins, prompts and settings with pytest."""

from __future__ import annotations

__version__ = "0.1.0"
