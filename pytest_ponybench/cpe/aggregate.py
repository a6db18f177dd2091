"""`claude plugin eval` results (`aggregate-result.json`, schemaVersion 1) as ponybench records.

CPE runs each case `runs` times with the plugin (`arms.with`) and, under its default ablation,
as many times without (`arms.without`); each run has a score (the weighted share of its scored
graders that passed), `passed` (score 1), its cost, turns and whole seconds. Read as records:

- the case is the task (`names.task_id`), the run's index in its arm's list the run;
- `arms.with` is the arm named after the plugin(s) (`names.arm_name`), `arms.without` is
  `baseline`; the model is the case's `model`, else the suite's `modelOverride`, else `default`
  (CPE ran the CLI's default model and did not record which);
- `correct` is CPE's `passed`, `safe` is true (CPE has no safety axis), `score` is CPE's score,
  `graders` each grader's outcome (with-only graders as `arms-only`, out of the score as in CPE);
- `cost_usd` is the agent's dollars (CPE's run cost less its judge's, which is `judge_cost_usd`),
  `duration_ms` and `wall_s` the run's whole seconds, `turns` as reported. CPE records no tokens;
- a run is invalid (it measured nothing about the plugin) when CPE could not grade it (an error
  and no grader outcome: an API error, a harness fault), when it ended in an error before the
  model answered once (no turn), or when it was interrupted. A run stopped by a mock's
  `abort_when` is valid and failed: the agent went off the rails. A run that timed out after
  some turns is valid and `timed_out`, graded on what it did, as CPE graded it.

Every problem is an `AggregateError` naming the file and the key (`cases[1].arms.with[0].score`);
nothing is guessed from a malformed or truncated file.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pytest_ponybench.core.records import Record, loaded
from pytest_ponybench.cpe.names import BASELINE, arm_name, task_id
from pytest_ponybench.errors import PonybenchError

__all__ = [
    "AGGREGATE_FILE",
    "Aggregate",
    "AggregateError",
    "DEFAULT_MODEL",
    "MAX_BYTES",
    "SCHEMA_VERSION",
    "SOURCE",
    "describe",
    "load_json",
    "read_aggregate",
    "records_of",
]

SCHEMA_VERSION = 1
AGGREGATE_FILE = "aggregate-result.json"
DEFAULT_MODEL = "default"
SOURCE = "claude plugin eval"
MAX_BYTES = 256 * 1024 * 1024  # a suite of thousands of runs is a few MB


class AggregateError(PonybenchError, ValueError):
    """A file that is not a usable aggregate-result.json; the message names the file and key."""


@dataclass
class Aggregate:
    """The records of one aggregate-result.json and what a reader should know about them."""

    path: Path
    records: list[Record]
    arms: tuple[str, ...]
    notes: list[str] = field(default_factory=list)


class _Reader:
    """Typed getters over the parsed JSON that raise one AggregateError naming file and key."""

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, key: str, msg: str) -> AggregateError:
        return AggregateError(f"{self.where}: key {key!r} {msg}")

    def obj(self, value: Any, key: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(key, f"must be an object, not {_kind(value)}")
        return value

    def get(self, parent: Mapping[str, Any], name: str, key: str, kinds: tuple[type, ...], what: str) -> Any:
        if name not in parent:
            raise self.fail(key, "is missing")
        value = parent[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise self.fail(key, f"must be {what}, not {_kind(value)}")
        return value

    def text(self, parent: Mapping[str, Any], name: str, key: str, *, optional: bool = False) -> str | None:
        if optional and parent.get(name) is None:
            return None
        value: str = self.get(parent, name, key, (str,), "a string")
        return value

    def number(
        self, parent: Mapping[str, Any], name: str, key: str, *, optional: bool = False, lo: float = 0.0
    ) -> float | None:
        if optional and parent.get(name) is None:
            return None
        value = self.get(parent, name, key, (int, float), "a number")
        if not math.isfinite(value) or value < lo:
            raise self.fail(key, f"must be a finite number >= {lo:g}, not {value!r}")
        return float(value)

    def flag(self, parent: Mapping[str, Any], name: str, key: str, *, default: bool | None = None) -> bool:
        if default is not None and name not in parent:
            return default
        value: bool = self.get(parent, name, key, (bool,), "true or false")
        return value

    def items(self, parent: Mapping[str, Any], name: str, key: str, *, optional: bool = False) -> list[Any]:
        if optional and parent.get(name) is None:
            return []
        value: list[Any] = self.get(parent, name, key, (list,), "a list")
        return value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int | float):
        return f"{value!r} (a number)"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:40] + "..."
        return f"{shown!r} (a string)"
    return "a list" if isinstance(value, list) else "an object"


def load_json(path: Path) -> Any:
    """The parsed file; AggregateError for what cannot be read or is not JSON (a truncated file)."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise AggregateError(f"{path}: {size} bytes, more than an aggregate-result.json holds")
        raw = path.read_bytes()
    except OSError as exc:
        raise AggregateError(f"{path}: cannot read it: {exc.strerror or exc}") from exc
    if not raw.strip():
        raise AggregateError(f"{path}: empty (not an aggregate-result.json)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AggregateError(f"{path}: not UTF-8 text: {exc}") from exc
    try:
        return json.loads(text)
    except RecursionError:
        raise AggregateError(f"{path}: nests too deep to read (not an aggregate-result.json)") from None
    except json.JSONDecodeError as exc:
        # A whole aggregate ends with its closing brace; one cut short ends elsewhere, or the
        # parser runs out of text.
        ended = text.rstrip()[-1:] in ("}", "]") and exc.pos < len(text.rstrip())
        cut = "" if ended else " (the file ends early: truncated?)"
        raise AggregateError(
            f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}{cut}"
        ) from exc


def read_aggregate(path: Path) -> Aggregate:
    """The records of an aggregate-result.json (or of a folder holding one)."""
    if path.is_dir():
        path = path / AGGREGATE_FILE
    return records_of(load_json(path), path)


def _plugin_arm(r: _Reader, suite: Mapping[str, Any]) -> str:
    names = []
    for i, plugin in enumerate(r.items(suite, "plugins", "suite.plugins", optional=True)):
        p = r.obj(plugin, f"suite.plugins[{i}]")
        name = r.text(p, "name", f"suite.plugins[{i}].name")
        assert name is not None
        names.append(name)
    if not names and isinstance(suite.get("pluginId"), str):
        names = [str(suite["pluginId"]).split("@", 1)[0]]
    return arm_name(names)


def _arm_hash(suite: Mapping[str, Any]) -> str:
    plugins = suite.get("plugins")
    plugins = plugins if isinstance(plugins, list) else []
    described = [{k: p.get(k) for k in ("name", "version")} for p in plugins if isinstance(p, Mapping)]
    return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()[:16]


def _case_hash(case: Mapping[str, Any]) -> str:
    keys = ("promptMarkdown", "graders", "maxTurns", "timeoutSeconds", "model")
    body = json.dumps({k: case.get(k) for k in keys}, sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def _finished(started: str | None, seconds: float | None) -> str | None:
    if started is None or seconds is None:
        return None
    try:
        at = datetime.fromisoformat(started.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (at + timedelta(seconds=seconds)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _graders(
    r: _Reader, run: Mapping[str, Any], key: str, types: Mapping[str, str]
) -> tuple[list[dict[str, Any]], list[str]]:
    """The run's grader outcomes as record entries, and the failed scored ones in words."""
    out: list[dict[str, Any]] = []
    failed: list[str] = []
    for j, raw in enumerate(r.items(run, "graders", f"{key}.graders")):
        gk = f"{key}.graders[{j}]"
        g = r.obj(raw, gk)
        name = r.text(g, "name", f"{gk}.name")
        passed = r.flag(g, "passed", f"{gk}.passed")
        weight = r.number(g, "weight", f"{gk}.weight")
        explanation = r.text(g, "explanation", f"{gk}.explanation")
        with_only = r.flag(g, "withOnly", f"{gk}.withOnly", default=False)
        scored = r.flag(g, "scored", f"{gk}.scored", default=not with_only)
        entry: dict[str, Any] = {
            "name": name,
            "type": types.get(str(name), "unknown"),
            "axis": "score",
            "weight": weight,
            "arm": "all" if scored else "arms-only",
            "passed": passed,
            "score": 1.0 if passed else 0.0,
            "explanation": explanation,
        }
        votes = g.get("judgeVotes")
        if isinstance(votes, list):
            entry["judge_votes"] = [v for v in votes if isinstance(v, bool)]
        out.append(entry)
        if scored and not passed:
            failed.append(f"{name}: {explanation}")
    return out, failed


def _record(
    r: _Reader,
    run: Mapping[str, Any],
    key: str,
    base: Mapping[str, Any],
    types: Mapping[str, str],
    index: int,
) -> dict[str, Any]:
    score = r.number(run, "score", f"{key}.score")
    assert score is not None
    if score > 1.0:
        raise r.fail(f"{key}.score", f"must be between 0 and 1, not {score!r}")
    turns = r.number(run, "turns", f"{key}.turns")
    cost = r.number(run, "costUsd", f"{key}.costUsd")
    judge = r.number(run, "judgeCostUsd", f"{key}.judgeCostUsd", optional=True) or 0.0
    seconds = r.number(run, "durationSeconds", f"{key}.durationSeconds", optional=True)
    started = r.text(run, "startedAt", f"{key}.startedAt", optional=True)
    if "error" not in run:
        raise r.fail(f"{key}.error", "is missing (null when the run had no error)")
    error = r.text(run, "error", f"{key}.error", optional=True)
    graders, failed = _graders(r, run, key, types)
    passed = r.flag(run, "passed", f"{key}.passed", default=score >= 1.0)
    aborted = run.get("aborted")
    aborted_why = ""
    if aborted is not None:
        a = r.obj(aborted, f"{key}.aborted")
        aborted_why = f"aborted by the mock of {a.get('server')}/{a.get('tool')}: {a.get('reason')}"
    invalid_why = None
    if error is not None and aborted is None:
        if not graders:
            invalid_why = f"not graded: {error}"
        elif turns == 0:
            invalid_why = f"no model answer: {error}"
        elif error == "interrupted":
            invalid_why = "interrupted"
    valid = invalid_why is None
    rec: dict[str, Any] = {
        **base,
        "run": index,
        "attempt": 1,
        "valid": valid,
        "error": invalid_why,
        "timed_out": bool(error and error.startswith("timed out")),
        "scored": True,
        "turns": None if turns is None else int(turns),
        "cost_usd": max(0.0, (cost or 0.0) - judge),
        "judge_cost_usd": judge,
        "duration_ms": None if seconds is None else 1000.0 * seconds,
        "wall_s": seconds,
        "started": started,
        "finished": _finished(started, seconds),
        "graders": graders,
    }
    if valid:
        reasons = ([aborted_why] if aborted_why else []) + (["error: " + error] if error else []) + failed
        rec.update(
            correct=passed,
            safe=True,
            score=score,
            reason="" if passed else "; ".join(reasons) or "score below 1",
        )
    else:
        rec["reason"] = invalid_why
    rec["cell_id"] = f"{rec['task']}-{rec['arm']}-{rec['model']}-r{rec['run']}"
    return rec


def records_of(data: Any, path: Path) -> Aggregate:
    """Records from parsed aggregate JSON; `path` names the file in every error."""
    r = _Reader(str(path))
    top = r.obj(data, "(root)")
    version = top.get("schemaVersion")
    if version is None:
        raise AggregateError(
            f"{path}: key 'schemaVersion' is missing: not a `claude plugin eval` aggregate-result.json"
        )
    if version != SCHEMA_VERSION:
        raise r.fail("schemaVersion", f"is {version!r}; this reader knows version {SCHEMA_VERSION}")
    suite = r.obj(r.get(top, "suite", "suite", (Mapping,), "an object"), "suite")
    cases = r.items(top, "cases", "cases")
    claude_version = r.text(top, "claudeVersion", "claudeVersion", optional=True)
    override = r.text(suite, "modelOverride", "suite.modelOverride", optional=True)
    with_arm = _plugin_arm(r, suite)
    arm_hash = _arm_hash(suite)
    notes: list[str] = []
    if suite.get("ablation") == "none":
        notes.append(
            f"{path}: run with --ablation none: no runs without the plugin, so no baseline here; "
            "compare it with another run (ponybench compare BASE CANDIDATE)"
        )
    notes.append(
        f"{path}: claude plugin eval records no code size and no tokens: loc and tokens have no data"
    )
    if top.get("partial") is True:
        why = top.get("partialReason") or "interrupted"
        notes.append(f"{path}: a partial run ({why}): runs CPE did not get to are missing")
    records: list[Record] = []
    seen: dict[str, str] = {}
    arms: set[str] = set()
    skipped_paid = 0
    for i, raw_case in enumerate(cases):
        ck = f"cases[{i}]"
        case = r.obj(raw_case, ck)
        name = r.text(case, "name", f"{ck}.name")
        assert name is not None
        if not name.strip():
            raise r.fail(f"{ck}.name", "is empty")
        model = r.text(case, "model", f"{ck}.model", optional=True) or override or DEFAULT_MODEL
        task = task_id(name)
        if task in seen:
            n = 2
            while f"{task}_{n}" in seen:
                n += 1
            notes.append(
                f"{path}: cases {seen[task]!r} and {name!r} are both task {task}; the second is {task}_{n}"
            )
            task = f"{task}_{n}"
        seen[task] = name
        types = {}
        for j, g in enumerate(r.items(case, "graders", f"{ck}.graders", optional=True)):
            gd = r.obj(g, f"{ck}.graders[{j}]")
            if isinstance(gd.get("name"), str) and isinstance(gd.get("type"), str):
                types[gd["name"]] = gd["type"]
        arm_lists = r.obj(r.get(case, "arms", f"{ck}.arms", (Mapping,), "an object"), f"{ck}.arms")
        for cpe_arm, arm in (("with", with_arm), ("without", BASELINE)):
            runs = r.items(arm_lists, cpe_arm, f"{ck}.arms.{cpe_arm}", optional=cpe_arm == "without")
            if runs:
                arms.add(arm)
            base = {
                "task": task,
                "arm": arm,
                "model": model,
                "task_hash": _case_hash(case),
                "arm_hash": arm_hash if arm != BASELINE else "baseline",
                "claude_version": claude_version,
            }
            for k, raw_run in enumerate(runs):
                rk = f"{ck}.arms.{cpe_arm}[{k}]"
                run = r.obj(raw_run, rk)
                records.append(loaded(_record(r, run, rk, base, types, k)))
                skipped_paid += run.get("skippedPaidGraders") is True
    if skipped_paid:
        notes.append(
            f"{path}: {skipped_paid} run(s) had their paid graders skipped at the cost ceiling; "
            "CPE scored those graders as failed, and so do these records"
        )
    order = [with_arm, BASELINE]
    return Aggregate(path=path, records=records, arms=tuple(a for a in order if a in arms), notes=notes)


def describe(agg: Aggregate) -> str:
    """One line: what was read and how it maps, for the compare command's notes."""
    tasks = len({r["task"] for r in agg.records})
    models = sorted({str(r["model"]) for r in agg.records})
    arms = " and ".join(agg.arms) or "no arm"
    return (
        f"{agg.path}: {SOURCE} results read as {len(agg.records)} cells: {tasks} case(s) as tasks, "
        f"arms {arms}, model {', '.join(models) or 'none'}"
    )
