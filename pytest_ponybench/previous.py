"""Earlier runs: what --resume and --rescore read from a run dir."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from . import config as cfg
from .arms import Arm, validate_plugin
from .records import finished_cell_ids
from .results import RUN_JSON, RunDir


def open_run(path_text: str, flag: str, root: Path) -> tuple[RunDir, dict[str, Any]]:
    """The run dir named by flag, with its run.json; a usage error names what is missing."""
    path = Path(path_text).expanduser()
    if not path.is_absolute():
        path = (root / path) if not path.exists() else path.resolve()
    if not path.is_dir():
        raise pytest.UsageError(f"{flag} {path_text}: no such run dir")
    run_dir = RunDir(path.resolve())
    try:
        info = run_dir.read_run_json()
    except (OSError, json.JSONDecodeError) as exc:
        raise pytest.UsageError(f"{flag} {path_text}: {RUN_JSON} is unreadable: {exc}") from None
    if not info:
        raise pytest.UsageError(f"{flag} {path_text}: no {RUN_JSON} (is this a ponybench run dir?)")
    return run_dir, info


def arms_of(info: dict[str, Any], flag: str) -> list[Arm]:
    """The arms a run used, rebuilt from run.json; a plugin that changed since is an error,
    because resuming would mix two different arms under one name."""
    arms = []
    for desc in info.get("arms") or []:
        name, kind = str(desc.get("name")), str(desc.get("kind"))
        plugin = desc.get("plugin_dir")
        arm = Arm(
            name,
            kind,
            prompt=desc.get("prompt"),
            settings=desc.get("settings"),
            plugin_dir=validate_plugin(f"{name!r} ({flag})", Path(plugin)) if plugin else None,
        )
        if desc.get("hash") and arm.content_hash() != desc["hash"]:
            raise pytest.UsageError(
                f"{flag}: arm {name!r} changed since that run (hash {desc['hash']} then, "
                f"{arm.content_hash()} now); start a new run to measure the new version"
            )
        arms.append(arm)
    if not arms:
        raise pytest.UsageError(f"{flag}: {RUN_JSON} lists no arms")
    return arms


def resumed_settings(settings: cfg.Settings, info: dict[str, Any]) -> cfg.Settings:
    """The grid options of the earlier run replace the command line's."""
    opts = info.get("options") or {}
    return replace(
        settings,
        models=list(opts.get("models") or settings.models),
        runs=int(opts.get("runs") or settings.runs),
        cell_timeout=float(opts.get("cell_timeout") or settings.cell_timeout),
        max_turns=int(opts.get("max_turns") or settings.max_turns),
        task_filter=list(opts.get("tasks") or []),
        arm_names=list(opts.get("arms") or []),
    )


def finished_cells(records: list[dict[str, Any]]) -> set[str]:
    """Cells that need no rerun: those with a valid record."""
    return finished_cell_ids(records)
