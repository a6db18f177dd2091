"""The activation proofs' place in pytest's cache (`plan.proofs`).

Read straight from the cache's file, since the checks start in ponybench's configure, before
pytest's cache plugin has made `config.cache`; written through `config.cache`, which makes the
cache folder as pytest makes it (its README, .gitignore and CACHEDIR.TAG)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.plan.proofs import KEY, Proofs

__all__ = ["proofs_of"]


def proofs_of(config: pytest.Config, *, keep: bool = True) -> Proofs | None:
    """The proofs kept in this project's pytest cache; None with `-p no:cacheprovider`, none
    read with `--cache-clear`, none kept when not `keep`."""
    if not config.pluginmanager.has_plugin("cacheprovider"):
        return None
    folder = Path(os.path.expandvars(os.path.expanduser(str(config.getini("cache_dir")))))
    value = (folder if folder.is_absolute() else config.rootpath / folder) / "v" / KEY
    cleared = bool(config.getoption("cacheclear", False))

    def read() -> Any:
        if cleared:
            return {}
        try:
            return json.loads(value.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # none yet, or unreadable: every arm is checked

    def write(kept: dict[str, Any]) -> None:
        cache = getattr(config, "cache", None)
        if cache is not None:  # made by the cache plugin's configure, long done by now
            cache.set(KEY, kept)

    return Proofs(read, write if keep else None)
