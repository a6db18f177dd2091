"""Earlier runs: what --resume and --rescore read from a run dir.

A run.json may be from an older version, edited by hand, or truncated by a full disk: every
value read here is checked, and a bad one is a usage error naming the flag, the file and the key.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_ponybench.core.armparts import PART_KINDS
from pytest_ponybench.core.arms import Arm, apart_from, make_arm
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.roles import config as cfg
from pytest_ponybench.store.results import RUN_JSON, RunDir

__all__ = ["arms_of", "grid_conflicts", "open_run", "resumed_settings", "task_runs_of"]


def open_run(path_text: str, flag: str, root: Path) -> tuple[RunDir, dict[str, Any]]:
    """The run dir named by flag, with its run.json; a usage error names what is missing."""
    path = Path(path_text).expanduser()
    if not path.is_absolute():
        path = (root / path) if not path.exists() else path.resolve()
    if not path.is_dir():
        raise PonybenchError(f"{flag} {path_text}: no such run dir")
    run_json = path / RUN_JSON
    if not run_json.is_file():
        raise PonybenchError(f"{flag} {path_text}: no {RUN_JSON} (is this a ponybench run dir?)")
    try:
        info = json.loads(run_json.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PonybenchError(f"{flag} {path_text}: {RUN_JSON} is unreadable: {exc}") from None
    if not isinstance(info, dict) or not info:
        raise PonybenchError(f"{flag} {path_text}: {RUN_JSON} is not a JSON object with the run's provenance")
    return RunDir(path.resolve()), info


def _where(flag: str, run_dir: RunDir, key: str) -> str:
    return f"{flag} {run_dir.path}: {RUN_JSON} {key}"


def _arm_of(desc: dict[str, Any], where: str, flag: str) -> Arm:
    """One arm as run.json describes it: by its parts, or (before parts) by kind and content."""
    name, kind = desc["name"], str(desc.get("kind"))
    parts = desc.get("parts")
    if isinstance(parts, list):
        given = [
            (str(p["kind"]), p["value"])
            for p in parts
            if isinstance(p, dict) and p.get("kind") in PART_KINDS and isinstance(p.get("value"), str)
        ]
        if len(given) != len(parts):
            raise PonybenchError(f"{where}: arm {name!r} has malformed parts")
        return make_arm(name, given, Path("/"), flag)
    texts = {k: desc.get(k) for k in ("prompt", "settings", "plugin_dir")}
    if kind not in ("baseline", "plugin", "prompt", "settings") or any(
        v is not None and not isinstance(v, str) for v in texts.values()
    ):
        raise PonybenchError(f"{where}: arm {name!r} is malformed (kind {kind!r})")
    value = texts["plugin_dir"] if kind == "plugin" else texts[kind] if kind != "baseline" else None
    if kind != "baseline" and value is None:
        raise PonybenchError(f"{where}: arm {name!r} is malformed (kind {kind!r} without its {kind})")
    return make_arm(name, [] if kind == "baseline" else [(kind, value)], Path("/"), flag)


def arms_of(info: dict[str, Any], flag: str, run_dir: RunDir, apart: Sequence[Path] = ()) -> list[Arm]:
    """The arms a run used, rebuilt from run.json; an arm whose content changed since is an
    error, because resuming would mix two different arms under one name. `apart`: the benchmark's
    own folders, left out of a plugin's hash as they were when the run started (`apart_from`)."""
    described = info.get("arms")
    if not isinstance(described, list) or not described:
        raise PonybenchError(f"{_where(flag, run_dir, 'arms')}: lists no arms")
    arms = []
    for i, desc in enumerate(described):
        where = _where(flag, run_dir, f"arms[{i}]")
        if not isinstance(desc, dict) or not isinstance(desc.get("name"), str):
            raise PonybenchError(f"{where}: not an arm description with a name")
        (arm,) = apart_from([_arm_of(desc, where, flag)], apart)
        if desc.get("hash") and arm.content_hash() != desc["hash"]:
            raise PonybenchError(
                f"{flag}: arm {arm.name!r} changed since that run (hash {desc['hash']} then, "
                f"{arm.content_hash()} now); start a new run to measure the new version"
            )
        arms.append(arm)
    return arms


def task_runs_of(info: dict[str, Any], flag: str, run_dir: RunDir) -> dict[str, int]:
    """The tasks that ran their own number of runs (options.task_runs), as the run recorded them."""
    opts = info.get("options")
    own = opts.get("task_runs") if isinstance(opts, dict) else None
    if own is None:
        return {}
    where = _where(flag, run_dir, "options.task_runs")
    if not isinstance(own, dict):
        raise PonybenchError(f"{where}: not a table of task id -> runs")
    return {str(t): cfg.count(f"{where}.{t}", n, 1, cfg.MAX_RUNS) for t, n in own.items()}


def resumed_settings(settings: cfg.Settings, info: dict[str, Any], run_dir: RunDir) -> cfg.Settings:
    """The run's own values replace the command line's for every option a resume may not
    change (cfg.Resume.FIXED, checked first by grid_conflicts, and cfg.Resume.RUN), each read
    from run.json's options with the row's parser; a value the run did not record stays."""
    flag = cfg.OPT_RESUME
    opts = info.get("options")
    if not isinstance(opts, dict):
        raise PonybenchError(f"{_where(flag, run_dir, 'options')}: missing or not an object")
    changes: dict[str, Any] = {}
    for row in cfg.RECORDED:
        if row.resume is cfg.Resume.FREE or row.setting is None or row.record is None:
            continue
        value = opts.get(row.record)
        if value is not None:
            changes[row.setting] = row.parse(_where(flag, run_dir, f"options.{row.record}"), value)
    if "models" in changes and not changes["models"]:
        raise PonybenchError(f"{_where(flag, run_dir, 'options.models')}: names no model")
    return replace(settings, **changes)


def grid_conflicts(given: dict[str, Any], info: dict[str, Any]) -> list[str]:
    """The options fixed on resume that the command line (given) sets to another value than the
    resumed run's (the run's grid is what a resume finishes; a different one is a new run)."""
    opts = info.get("options") if isinstance(info.get("options"), dict) else {}
    assert isinstance(opts, dict)
    out = []
    for row in cfg.RECORDED:
        value = given.get(str(row.flag))
        if row.resume is not cfg.Resume.FIXED or row.flag is None or row.record is None or value is None:
            continue
        then = opts.get(row.record)
        if row.listed:
            then_names = cfg.names(row.flag, then) if isinstance(then, str | list) else ()
            same = set(cfg.names(row.flag, value)) == set(then_names)
        else:
            same = str(value).strip() == str(then)
        if not same:
            out.append(f"{row.flag} {value}")
    # --arm is recorded as the arms it added: one the run did not have is a change of its grid.
    run_arms = {a.get("name") for a in info.get("arms") or [] if isinstance(a, dict)}
    for spec in given.get(cfg.OPT_ARM) or []:
        if str(spec).split("=", 1)[0].strip() not in run_arms:
            out.append(f"{cfg.OPT_ARM} {spec}")
    return out
