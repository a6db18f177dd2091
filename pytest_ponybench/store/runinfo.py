"""run.json: where a run's numbers came from, typed, with one reader and one writer.

Every run dir has one `run.json`, written when the session starts (`RunDir.start`), set again
mid-run (a sequential look) and at the end (`RunDir.finish`), and written whole by a merge. It
says what was measured (the grid: tasks and arms with their content hashes, models, runs), how
(every option that shapes the figures, the judge included), with what (harness, claude, python,
pytest and xdist versions, the confinement) and how the session went (pre-flight, warm-up,
start, end, exit status, missing cells). Two runs are comparable when those agree.

`RunInfo` is the schema, field by field; `RunInfo.from_json` is the one reader (an old form is
first brought to the current one by `store.runforms`) and `RunInfo.to_json` the one writer.
Reading never raises on a malformed key: the key keeps its default, its value is kept to be
written back unchanged, and the problem is listed in `RunInfo.problems` (a resume or a merge
refuses the run dir naming the first; the report shows what it can). Only a file that is not a
JSON object at all is a `RunInfoError` (`read`).

The key names and their order are the file's as users know it (docs/results.md); a key this
version does not know is kept and written back after the known ones. A run history (`ponybench
history`, an append-only index over run dirs) belongs beside this module, reading run dirs
through `read`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Final

from pytest_ponybench.analysis import sequential
from pytest_ponybench.core.runs import Runs
from pytest_ponybench.core.shards import GridSpec
from pytest_ponybench.errors import PonybenchError, excerpt
from pytest_ponybench.store import runforms

__all__ = [
    "RUN_JSON",
    "ArmInfo",
    "GitState",
    "Harness",
    "Options",
    "PartInfo",
    "Problem",
    "RunInfo",
    "RunInfoError",
    "ShardInfo",
    "read",
    "read_document",
    "shown",
]

RUN_JSON: Final = "run.json"

Json = Mapping[str, Any]
Design = tuple[sequential.Plan, tuple[sequential.Look, ...]]


class RunInfoError(PonybenchError):
    """run.json cannot be read, is not a JSON object, or (for a reader that needs it whole) has
    a malformed key; `detail` is what follows "run.json " in the message."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"{RUN_JSON} {detail}")
        self.detail = detail


@dataclass(frozen=True)
class Problem:
    """A malformed key: its path in the file (`options.runs`, `arms[0]`) and what is wrong,
    worded to follow "run.json " (`options.runs must be a number, not 'x'`)."""

    key: str
    detail: str


# -- the parts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GitState:
    """A git checkout's state when the run started: `git_sha` (None outside a checkout) and
    `git_dirty` (uncommitted changes under it)."""

    sha: str | None = None
    dirty: bool | None = None

    def to_json(self) -> dict[str, Any]:
        return {"git_sha": self.sha, "git_dirty": self.dirty}


@dataclass(frozen=True)
class Harness:
    """`harness`: this package's `version` and the git state of its checkout (an installed
    wheel: none)."""

    version: str | None = None
    git: GitState = GitState()

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, **self.git.to_json()}


@dataclass(frozen=True)
class PartInfo:
    """One part of an arm (`arms[i].parts[j]`): its `kind` (plugin, prompt, settings, mcp,
    claude-md, skills, agents, output-style), its `value` as `make_part` takes it again, its
    content `hash` (None in a run dir from before parts, whose parts the migration made) and the
    `names` it registers (skills, agents: absent when none)."""

    kind: str
    value: str
    hash: str | None = None
    names: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.hash is not None:
            out["hash"] = self.hash
        out["value"] = self.value
        if self.names:
            out["names"] = list(self.names)
        return out


@dataclass(frozen=True)
class ArmInfo:
    """One arm that ran (`arms[i]`), baseline first: its `name`, `kind` (baseline, a part's kind,
    or `composed`), content `hash` (a resume refuses an arm whose hash changed), the first
    plugin's folder, the prompt and the settings as texts (None where it has none), its `parts`,
    and the git state of a plugin's checkout (`git_sha`, `git_dirty`; plugin arms only)."""

    name: str
    kind: str = "baseline"
    hash: str | None = None
    plugin_dir: str | None = None
    prompt: str | None = None
    settings: str | None = None
    parts: tuple[PartInfo, ...] = ()
    git: GitState | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "hash": self.hash}
        out.update(plugin_dir=self.plugin_dir, prompt=self.prompt, settings=self.settings)
        out["parts"] = [p.to_json() for p in self.parts]
        return {**out, **(self.git.to_json() if self.git is not None else {})}


@dataclass(frozen=True)
class Options:
    """`options`: every option that shapes the figures, by its record key (plan/options.py's
    `OPTIONS` rows with `record`; a unit test keeps the two equal). None: not recorded (a run
    dir from before the option was) or, for the limits, no limit.

    - `models`: the models of the grid, as given (aliases, full ids, offline-*).
    - `agents`: the agent CLIs of the grid (`--agents`); a run dir from before the option ran
      claude alone, and reads so.
    - `runs`: runs per (task, arm, model), written as `runs`, and the tasks that ran their own
      number (task.toml's `runs`) as `task_runs` (absent when none).
    - `tasks`: the `--tasks` selection (ids or tags; empty: every task).
    - `arms`: the arms that ran, by name, baseline first.
    - `until_decided`, `max_tasks`: the sequential mode and its task cap.
    - `budget_usd`, `max_budget_usd`: the run's budget (a merge: the sum of its shards') and
      the cap per cell.
    - `cell_timeout`, `max_turns`, `retries`: what one session may take, and the re-runs of an
      invalid one.
    - `judge_model`, `judge_runs`: the judge asked (given or by default) and how often.
    - `primary`, `family`, `direction`: the verdicts' design (`direction` the primary's
      declared test, two-sided or better).
    """

    models: tuple[str, ...] | None = None
    agents: tuple[str, ...] | None = None
    runs: Runs | None = None
    tasks: tuple[str, ...] | None = None
    arms: tuple[str, ...] | None = None
    until_decided: bool | None = None
    max_tasks: int | None = None
    budget_usd: float | None = None
    max_budget_usd: float | None = None
    cell_timeout: float | None = None
    max_turns: int | None = None
    retries: int | None = None
    judge_model: str | None = None
    judge_runs: int | None = None
    primary: str | None = None
    family: str | None = None
    direction: str | None = None
    # Keys this version does not know, and malformed values, as they were: written back.
    kept: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """The record keys, in the file's order."""
        return tuple(f.name for f in fields(cls) if f.name != "kept")

    def recorded(self) -> dict[str, Any]:
        """Each key's value as JSON (`runs` the run's number): what the option table's parsers
        read back on a resume, and what a comparison compares."""
        out = {k: _plain(getattr(self, k)) for k in self.keys()}
        out["runs"] = self.runs.count if self.runs is not None else None
        return out

    def differences(self, other: Options, names: tuple[str, str] = ("first", "second")) -> list[str]:
        """What makes two runs' figures incomparable, one line per option that differs (the
        tasks' own runs with `runs`); an option one run did not record is named too."""
        out = []
        mine, theirs = self.recorded(), other.recorded()
        mine["task_runs"] = dict(self.runs.own) if self.runs is not None else {}
        theirs["task_runs"] = dict(other.runs.own) if other.runs is not None else {}
        for said in (mine, theirs):  # recorded before --agents: claude ran every cell
            said["agents"] = said["agents"] or list(CLAUDE_ONLY)
        for key in [*self.keys(), "task_runs"]:
            a, b = mine[key], theirs[key]
            if key in _SETS and isinstance(a, list) and isinstance(b, list):
                a, b = sorted(a), sorted(b)
            if a != b:
                out.append(f"{key} {_said(a)} in {names[0]} but {_said(b)} in {names[1]}")
        return out

    def to_json(self) -> dict[str, Any]:
        out = self.recorded()
        if self.runs is not None and self.runs.own:
            out["task_runs"] = dict(self.runs.own)
        return {**out, **self.kept}


_SETS = ("models", "agents", "tasks", "arms")  # compared as sets: their order is not the grid's
CLAUDE_ONLY = ("claude",)


def _said(value: Any) -> str:
    return "not recorded" if value is None else json.dumps(value)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class ShardInfo:
    """`shard`: this run's part of a sharded grid, `index` of `count` (from 1), and its cell
    ids (a resume finishes that shard only)."""

    index: int
    count: int
    cells: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "count": self.count, "cells": list(self.cells)}


# -- the file ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunInfo:
    """One run dir's run.json, in the file's order. Always written: `harness` to `grid`; the
    others only when set (a rescore has no grid hash, a merge no argv).

    - `harness`, `project`: this package's version and checkout, the project's checkout.
    - `claude_version`: `claude --version` (None when unknown, or a merge of mixed versions).
    - `agent_versions`: each agent CLI's version line, agent -> version, when the grid ran
      another agent than claude (`--agents`); absent otherwise.
    - `python`, `pytest`, `xdist`, `platform`: versions and the machine (xdist None: not installed).
    - `envelope`: the resources the run had (`cpus` it may use, the cgroup's `cpu_quota` in cores,
      `memory_gib` of the machine and the cgroup's `memory_limit_gib`, xdist's `workers` as given):
      the same benchmark moves by points between envelopes, so a history breaks its series there.
    - `argv`, `cwd`: the command line and the folder it ran in.
    - `options`: every option that shapes the figures (`Options`).
    - `arms`: the arms that ran, baseline first (`ArmInfo`).
    - `tasks`, `fixtures`: task id -> content hash, fixture name -> tree hash.
    - `grid`: every cell id of this session, in run order.
    - `mode`: run, resume, rescore or merge.
    - `grid_hash`, `shard`: the grid's hash over tasks, arms, models and runs (a merge checks its
      parts against it), and this run's shard of it.
    - `resume_of`, `rescore_of`: the run dir this session resumed or rescored.
    - `preflight`, `warmup`, `confinement`, `estimate_usd`: the pre-flight's checks (`ran`,
      `api`, `arms` (each `ok`, `problems`, `evidence`, `wall_s`), `judge`, `problems`), the
      warm-up calls, what the agent's and the scorer's
      confinement proved (`agent`, `scorer`), and a paid run's estimate (low, high); written by
      roles/controller.py and shown as they are.
    - `started`, `finished`, `exitstatus`, `missing`: when, how the session ended, the cells that
      left no record.
    - `sequential`: the design of `--until-decided` and every look so far (`--resume` continues it).
    - `merged`: a merge's parts, duplicates and claude versions (store/merge.py).
    - `kept`: keys this version does not know, and malformed values, as they were.
    - `form`, `problems`: which form the file was read in (`store.runforms`) and what in it is
      malformed; neither is written.
    """

    harness: Harness = Harness()
    project: GitState = GitState()
    claude_version: str | None = None
    agent_versions: Mapping[str, str] | None = None
    python: str | None = None
    pytest: str | None = None
    xdist: str | None = None
    platform: str | None = None
    envelope: Json | None = None
    argv: tuple[str, ...] | None = None
    cwd: str | None = None
    options: Options = Options()
    arms: tuple[ArmInfo, ...] = ()
    tasks: Mapping[str, str] = field(default_factory=dict)
    fixtures: Mapping[str, str] = field(default_factory=dict)
    grid: tuple[str, ...] = ()
    mode: str | None = None
    grid_hash: str | None = None
    shard: ShardInfo | None = None
    resume_of: str | None = None
    rescore_of: str | None = None
    preflight: Json | None = None
    warmup: tuple[Json, ...] | None = None
    confinement: Json | None = None
    estimate_usd: tuple[float, ...] | None = None
    started: str | None = None
    sequential: Design | None = None
    exitstatus: int | None = None
    missing: tuple[str, ...] | None = None
    finished: str | None = None
    merged: Json | None = None
    kept: Mapping[str, Any] = field(default_factory=dict)
    form: int = runforms.CURRENT
    problems: tuple[Problem, ...] = ()

    # -- the writer ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """run.json as this version writes it."""
        out: dict[str, Any] = {
            "harness": self.harness.to_json(),
            "project": self.project.to_json(),
            "claude_version": self.claude_version,
            "python": self.python,
            "pytest": self.pytest,
            "xdist": self.xdist,
            "platform": self.platform,
        }
        optional: dict[str, Any] = {
            "agent_versions": dict(self.agent_versions) if self.agent_versions is not None else None,
            "envelope": _copy(self.envelope),
            "argv": _plain(self.argv),
            "cwd": self.cwd,
        }
        out.update((k, v) for k, v in optional.items() if v is not None)
        out.update(
            options=self.options.to_json(),
            arms=[a.to_json() for a in self.arms],
            tasks=dict(self.tasks),
            fixtures=dict(self.fixtures),
            grid=list(self.grid),
        )
        later: dict[str, Any] = {
            "mode": self.mode,
            "grid_hash": self.grid_hash,
            "shard": self.shard.to_json() if self.shard is not None else None,
            "resume_of": self.resume_of,
            "rescore_of": self.rescore_of,
            "preflight": _copy(self.preflight),
            "warmup": [_copy(w) for w in self.warmup] if self.warmup is not None else None,
            "confinement": _copy(self.confinement),
            "estimate_usd": _plain(self.estimate_usd),
            "started": self.started,
            sequential.RUN_JSON_KEY: (
                sequential.to_run_json(self.sequential[0], self.sequential[1])
                if self.sequential is not None
                else None
            ),
            "exitstatus": self.exitstatus,
            "missing": _plain(self.missing),
            "finished": self.finished,
            "merged": _copy(self.merged),
        }
        out.update((k, v) for k, v in later.items() if v is not None)
        return {**out, **self.kept}

    # -- the reader ---------------------------------------------------------------------------

    @classmethod
    def from_json(cls, document: Json) -> RunInfo:
        """A run.json of any form, typed; never raises (see `problems`)."""
        form = runforms.form_of(document)
        doc = runforms.upgrade(document, form)
        reader = _Reader(doc)
        info = cls(
            harness=reader.block("harness", _harness, Harness()),
            project=reader.block("project", _git_state, GitState()),
            claude_version=reader.take("claude_version", _text),
            agent_versions=reader.take("agent_versions", _versions),
            python=reader.take("python", _text),
            pytest=reader.take("pytest", _text),
            xdist=reader.take("xdist", _text),
            platform=reader.take("platform", _text),
            envelope=reader.take("envelope", _object),
            argv=reader.take("argv", _texts),
            cwd=reader.take("cwd", _text),
            options=reader.block("options", lambda w, v: _options(w, v, reader.problems), Options()),
            arms=reader.block("arms", _arms, ()),
            tasks=reader.take("tasks", _hashes) or {},
            fixtures=reader.take("fixtures", _hashes) or {},
            grid=reader.take("grid", _texts) or (),
            mode=reader.take("mode", _text),
            grid_hash=reader.take("grid_hash", _text),
            shard=reader.block("shard", _shard, None),
            resume_of=reader.take("resume_of", _text),
            rescore_of=reader.take("rescore_of", _text),
            preflight=reader.take("preflight", _object),
            warmup=reader.take("warmup", _objects),
            confinement=reader.take("confinement", _object),
            estimate_usd=reader.take("estimate_usd", _numbers),
            started=reader.take("started", _text),
            sequential=reader.block(sequential.RUN_JSON_KEY, _design, None),
            exitstatus=reader.take("exitstatus", _whole),
            missing=reader.take("missing", _texts),
            finished=reader.take("finished", _text),
            merged=reader.take("merged", _object),
            form=form,
        )
        return replace(info, kept=reader.left(), problems=tuple(reader.problems))

    # -- what readers ask of it ---------------------------------------------------------------

    def problem(self, key: str) -> Problem | None:
        """The problem with this key or one below it, if any."""
        return next((p for p in self.problems if p.key == key or p.key.startswith(f"{key}.")), None)

    def design(self) -> Design | None:
        """The sequential design and its looks (None: a fixed design); ValueError naming the
        key when run.json holds a malformed one."""
        problem = self.problem(sequential.RUN_JSON_KEY)
        if problem is not None:
            raise ValueError(f"{RUN_JSON} {problem.detail}")
        return self.sequential

    def check(self) -> None:
        """RunInfoError naming the first malformed key: for a reader that needs the file whole
        (a resume, a rescore, a merge)."""
        if self.problems:
            raise RunInfoError(self.problems[0].detail)

    def grid_spec(self) -> GridSpec:
        """The grid this run measured (its tasks, arms, models and runs); ValueError naming what
        is missing. Read from what every form records, so a run dir from before sharding has one."""
        if not self.tasks:
            raise ValueError(f"{RUN_JSON} has no 'tasks' table (task id -> content hash)")
        if not self.arms:
            raise ValueError(f"{RUN_JSON} has no 'arms' list")
        opts = self.options
        if not opts.models or opts.runs is None:
            raise ValueError(f"{RUN_JSON} has no 'options' with 'models' and 'runs'")
        arms = {a.name: str(a.hash) for a in self.arms}
        return GridSpec(dict(self.tasks), arms, opts.models, opts.runs, opts.agents or CLAUDE_ONLY)


def _copy(value: Any) -> Any:
    """A JSON block as a plain value (a Mapping the reader kept is written as a dict)."""
    if isinstance(value, Mapping):
        return {str(k): _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


# -- reading, key by key -----------------------------------------------------------------------


class _Bad(ValueError):
    """A value of the wrong shape; the message follows the key's name."""


class _Reader:
    """Takes the known keys out of a document one by one; a bad value is a problem, kept as it
    was, and the key gets its default."""

    def __init__(self, doc: Json, prefix: str = "", problems: list[Problem] | None = None) -> None:
        self.doc, self.prefix = doc, prefix
        self.problems: list[Problem] = [] if problems is None else problems
        self.kept: dict[str, Any] = {}
        self.seen: set[str] = set()

    def take(self, key: str, parse: Callable[[str, Any], Any]) -> Any:
        return self.block(key, parse, None)

    def block(self, key: str, parse: Callable[[str, Any], Any], default: Any) -> Any:
        self.seen.add(key)
        if key not in self.doc:
            return default
        value = self.doc[key]
        if value is None:
            return default
        where = self.prefix + key
        try:
            return parse(where, value)
        except _Bad as exc:
            self.problems.append(Problem(where, str(exc)))
            self.kept[key] = value
            return default

    def left(self) -> dict[str, Any]:
        """The keys no one took (another version's), then the malformed ones."""
        return {**{k: v for k, v in self.doc.items() if k not in self.seen}, **self.kept}


def _text(where: str, value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise _Bad(f"{where} must be a string, not {excerpt(value)}")


def _texts(where: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise _Bad(f"{where} must be a list of strings, not {excerpt(value)}")


def _names(where: str, value: Any) -> tuple[str, ...] | None:
    """A list of names, or a comma-separated string (a hand-edited file)."""
    if value is None:
        return None
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise _Bad(f"{where} must be a comma-separated string or a list of strings, not {excerpt(value)}")


def _number(where: str, value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _Bad(f"{where} must be a number, not {excerpt(value)}")
    return float(value)


def _whole(where: str, value: Any) -> int | None:
    number = _number(where, value)
    if number is None:
        return None
    if number != int(number):
        raise _Bad(f"{where} must be a whole number, not {excerpt(value)}")
    return int(number)


def _switch(where: str, value: Any) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise _Bad(f"{where} must be true or false, not {excerpt(value)}")


def _object(where: str, value: Any) -> Json:
    if isinstance(value, dict):
        return value
    raise _Bad(f"{where}: not an object")


def _objects(where: str, value: Any) -> tuple[Json, ...]:
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return tuple(value)
    raise _Bad(f"{where}: not a list of objects")


def _numbers(where: str, value: Any) -> tuple[float, ...]:
    if isinstance(value, list) and all(_number(where, v) is not None for v in value):
        return tuple(float(v) for v in value)
    raise _Bad(f"{where}: not a list of numbers")


def _hashes(where: str, value: Any) -> dict[str, str]:
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    raise _Bad(f"{where}: not a table of name -> hash")


def _versions(where: str, value: Any) -> dict[str, str]:
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return {str(k): v for k, v in value.items()}
    raise _Bad(f"{where}: not a table of agent -> version")


def _git_state(where: str, value: Any) -> GitState:
    data = _object(where, value)
    return GitState(
        _text(f"{where}.git_sha", data.get("git_sha")), _switch(f"{where}.git_dirty", data.get("git_dirty"))
    )


def _harness(where: str, value: Any) -> Harness:
    data = _object(where, value)
    version = data.get("version")
    return Harness(None if version is None else str(version), _git_state(where, data))


def _options(where: str, value: Any, problems: list[Problem]) -> Options:
    if not isinstance(value, dict):
        raise _Bad(f"{where}: missing or not an object")
    reader = _Reader(value, f"{where}.", problems)
    parsers = {f.name: _BY_TYPE[str(f.type)] for f in fields(Options) if f.name not in ("runs", "kept")}
    taken = {key: reader.take(key, parse) for key, parse in parsers.items()}
    count = reader.take("runs", _whole)
    own = reader.take("task_runs", _own_runs) or {}
    runs = Runs(count, own) if count is not None else None
    return Options(runs=runs, kept=reader.left(), **taken)


# Each recorded option is read by the parser of its field's type (a new one needs no parser).
_BY_TYPE: Final[dict[str, Callable[[str, Any], Any]]] = {
    "tuple[str, ...] | None": _names,
    "bool | None": _switch,
    "int | None": _whole,
    "float | None": _number,
    "str | None": _text,
}


def _own_runs(where: str, value: Any) -> dict[str, int]:
    if not isinstance(value, dict) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in value.values()
    ):
        raise _Bad(f"{where}: not a table of task id -> runs")
    return {str(t): n for t, n in value.items()}


def _arms(where: str, value: Any) -> tuple[ArmInfo, ...]:
    if not isinstance(value, list):
        raise _Bad(f"{where}: lists no arms")
    return tuple(_arm(f"{where}[{i}]", desc) for i, desc in enumerate(value))


def _arm(where: str, desc: Any) -> ArmInfo:
    if not isinstance(desc, dict) or not isinstance(desc.get("name"), str):
        raise _Bad(f"{where}: not an arm description with a name")
    name, kind = desc["name"], desc.get("kind")
    texts = {k: desc.get(k) for k in ("plugin_dir", "prompt", "settings")}
    if any(v is not None and not isinstance(v, str) for v in texts.values()):
        raise _Bad(f"{where}: arm {name!r} is malformed (kind {kind!r})")
    parts = desc.get("parts")
    if parts is None:  # from before parts, and not one the migration could read
        own = "plugin_dir" if kind == "plugin" else kind
        lacks = f" without its {kind}" if own in texts and texts[own] is None else ""
        raise _Bad(f"{where}: arm {name!r} is malformed (kind {kind!r}{lacks})")
    if not isinstance(parts, list) or not all(
        isinstance(p, dict) and isinstance(p.get("kind"), str) and isinstance(p.get("value"), str)
        for p in parts
    ):
        raise _Bad(f"{where}: arm {name!r} has malformed parts")
    git = _git_state(where, desc) if "git_sha" in desc else None
    return ArmInfo(
        name=name,
        kind=str(kind),
        hash=None if desc.get("hash") is None else str(desc["hash"]),
        plugin_dir=texts["plugin_dir"],
        prompt=texts["prompt"],
        settings=texts["settings"],
        parts=tuple(
            PartInfo(
                p["kind"],
                p["value"],
                None if p.get("hash") is None else str(p["hash"]),
                tuple(map(str, p.get("names") or ())),
            )
            for p in parts
        ),
        git=git,
    )


def _shard(where: str, value: Any) -> ShardInfo:
    try:
        index, count = value["index"], value["count"]
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in (index, count)):
            raise TypeError
        if not 1 <= index <= count:
            raise ValueError
        cells = value.get("cells") or []
        return ShardInfo(index, count, tuple(str(c) for c in cells))
    except (TypeError, KeyError, ValueError, AttributeError):
        raise _Bad(f"key {where!r} is not a shard: {excerpt(value)}") from None


def _design(where: str, value: Any) -> Design:
    try:
        found = sequential.from_run_json({sequential.RUN_JSON_KEY: value})
    except ValueError as exc:
        raise _Bad(str(exc).removeprefix(f"{RUN_JSON} ")) from None
    assert found is not None
    plan, looks = found
    return plan, tuple(looks)


# -- the file on disk --------------------------------------------------------------------------


def read_document(run_dir: Path) -> dict[str, Any]:
    """run.json as it is on disk (the report shows it whole); RunInfoError when it cannot be
    read or is not a JSON object with the run's provenance. FileNotFoundError when absent."""
    path = run_dir / RUN_JSON
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunInfoError(f"is unreadable: {exc}") from None
    if not isinstance(data, dict) or not data:
        raise RunInfoError("is not a JSON object with the run's provenance")
    return data


def shown(run_dir: Path) -> dict[str, Any]:
    """run.json as it is on disk, to be shown whole (the report folds it in): {} when it is
    absent or unreadable. Code reads its fields through `read`."""
    try:
        return read_document(run_dir)
    except (OSError, RunInfoError):
        return {}


def read(run_dir: Path) -> RunInfo:
    """The one reader: a run dir's run.json, typed (see `read_document` for what it raises)."""
    return RunInfo.from_json(read_document(run_dir))
