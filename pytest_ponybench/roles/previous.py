"""Earlier runs: what --resume and --rescore read from a run dir.

A run.json may be from an older version, edited by hand, or truncated by a full disk: every
value read here is checked, and a bad one is a usage error naming the flag, the file and the key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_ponybench.core.armparts import PART_KINDS
from pytest_ponybench.core.arms import Arm, apart_from, make_arm
from pytest_ponybench.core.runs import Runs
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.roles import config as cfg
from pytest_ponybench.store import runinfo
from pytest_ponybench.store.results import RunDir
from pytest_ponybench.store.runinfo import RUN_JSON, ArmInfo, RunInfo, RunInfoError

__all__ = ["arms_of", "grid_conflicts", "open_run", "resumed_settings", "runs_of"]


def open_run(path_text: str, flag: str, root: Path) -> tuple[RunDir, RunInfo]:
    """The run dir named by flag, with its run.json whole; a usage error names what is missing
    or the first key that is malformed."""
    path = Path(path_text).expanduser()
    if not path.is_absolute():
        path = (root / path) if not path.exists() else path.resolve()
    if not path.is_dir():
        raise PonybenchError(f"{flag} {path_text}: no such run dir")
    if not (path / RUN_JSON).is_file():
        raise PonybenchError(f"{flag} {path_text}: no {RUN_JSON} (is this a ponybench run dir?)")
    try:
        info = runinfo.read(path)
    except RunInfoError as exc:
        raise PonybenchError(f"{flag} {path_text}: {exc}") from None
    run_dir = RunDir(path.resolve())
    try:
        info.check()
    except RunInfoError as exc:
        raise PonybenchError(f"{flag} {run_dir.path}: {exc}") from None
    return run_dir, info


def _where(flag: str, run_dir: RunDir, key: str) -> str:
    return f"{flag} {run_dir.path}: {RUN_JSON} {key}"


def arms_of(info: RunInfo, flag: str, run_dir: RunDir, apart: Sequence[Path] = ()) -> list[Arm]:
    """The arms a run used, rebuilt from run.json; an arm whose content changed since is an
    error, because resuming would mix two different arms under one name. `apart`: the benchmark's
    own folders, left out of a plugin's hash as they were when the run started (`apart_from`)."""
    if not info.arms:
        raise PonybenchError(f"{_where(flag, run_dir, 'arms')}: lists no arms")
    arms = []
    for i, desc in enumerate(info.arms):
        (arm,) = apart_from([_arm_of(desc, _where(flag, run_dir, f"arms[{i}]"), flag)], apart)
        if desc.hash and arm.content_hash() != desc.hash:
            raise PonybenchError(
                f"{flag}: arm {arm.name!r} changed since that run (hash {desc.hash} then, "
                f"{arm.content_hash()} now); start a new run to measure the new version"
            )
        arms.append(arm)
    return arms


def _arm_of(desc: ArmInfo, where: str, flag: str) -> Arm:
    """One arm as run.json describes it, by its parts (a run dir from before parts has had
    them made from its kind and content: store/runforms.py)."""
    if any(p.kind not in PART_KINDS for p in desc.parts):
        raise PonybenchError(f"{where}: arm {desc.name!r} has malformed parts")
    return make_arm(desc.name, [(p.kind, p.value) for p in desc.parts], Path("/"), flag)


def runs_of(info: RunInfo, run_dir: RunDir, count: int) -> Runs:
    """The runs as the run recorded them (options.runs and options.task_runs), each checked
    again; `count`, the resumed settings' runs, where the run recorded none."""
    recorded = info.options.runs
    if recorded is None:
        return Runs(count)
    where = _where(cfg.OPT_RESUME, run_dir, "options.task_runs")
    return Runs(count, {t: cfg.count(f"{where}.{t}", n, 1, cfg.MAX_RUNS) for t, n in recorded.own.items()})


def resumed_settings(settings: cfg.Settings, info: RunInfo, run_dir: RunDir) -> cfg.Settings:
    """The run's own values replace the command line's for every option a resume may not
    change (cfg.Resume.FIXED, checked first by grid_conflicts, and cfg.Resume.RUN), each read
    from run.json's options with the row's parser; a value the run did not record stays."""
    flag = cfg.OPT_RESUME
    if info.options == runinfo.Options():
        raise PonybenchError(f"{_where(flag, run_dir, 'options')}: missing or not an object")
    recorded = info.options.recorded()
    changes: dict[str, Any] = {}
    for row in cfg.RECORDED:
        if row.resume is cfg.Resume.FREE or row.setting is None or row.record is None:
            continue
        value = recorded.get(row.record)
        if value is not None:
            changes[row.setting] = row.parse(_where(flag, run_dir, f"options.{row.record}"), value)
    if "models" in changes and not changes["models"]:
        raise PonybenchError(f"{_where(flag, run_dir, 'options.models')}: names no model")
    return replace(settings, **changes)


def grid_conflicts(given: dict[str, Any], info: RunInfo) -> list[str]:
    """The options fixed on resume that the command line (given) sets to another value than the
    resumed run's (the run's grid is what a resume finishes; a different one is a new run)."""
    recorded = info.options.recorded()
    out = []
    for row in cfg.RECORDED:
        value = given.get(str(row.flag))
        if row.resume is not cfg.Resume.FIXED or row.flag is None or row.record is None or value is None:
            continue
        then = recorded.get(row.record)
        if row.listed:
            then_names = cfg.names(row.flag, then) if isinstance(then, str | list) else ()
            same = set(cfg.names(row.flag, value)) == set(then_names)
        else:
            same = str(value).strip() == str(then)
        if not same:
            out.append(f"{row.flag} {value}")
    # --arm is recorded as the arms it added: one the run did not have is a change of its grid.
    run_arms = {a.name for a in info.arms}
    for spec in given.get(cfg.OPT_ARM) or []:
        if str(spec).split("=", 1)[0].strip() not in run_arms:
            out.append(f"{cfg.OPT_ARM} {spec}")
    return out
