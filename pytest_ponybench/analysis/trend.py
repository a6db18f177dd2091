"""One benchmark over many runs: comparable series and their breaks, each arm's pass rate per
run, the tasks that moved between runs, the flaky ones, the slowest and costliest tasks' trend,
and which earlier runs a gate over history compares a run with.

Pure: a `Point` per run in (store/history.py makes them from a run dir's records and run.json,
and keeps them in the out folder's `history.jsonl`), figures out.

Two runs of one (arm, model) are one series when what moves the figures besides the arm agrees:
the tasks it ran and their content hashes, the agent CLI and its version, the judge model and
the resource envelope (the model is the series' own). A change of any is a break: a new series,
with a line saying why. A change of the arm's own hash is not a break: the arm is what the
series follows (a plugin edited between runs), so it is marked as a new version of the arm and
the series goes on; flakiness is counted at one arm hash only.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from pytest_ponybench.analysis.stats import sign_test_p, wilson
from pytest_ponybench.core.records import Record, is_scored, is_valid, latest, number, passed

__all__ = [
    "Base",
    "FAIL",
    "INVALID",
    "MISSING",
    "PASS",
    "UNSCORED",
    "Cells",
    "Flaky",
    "Move",
    "Point",
    "RunRate",
    "Series",
    "Trend",
    "base_runs",
    "cells_of",
    "flaky",
    "moves",
    "pool",
    "rate",
    "series",
    "sparkline",
    "trends",
]

# One character per cell of a (task, arm, model), by run index.
PASS: Final = "1"
FAIL: Final = "0"
INVALID: Final = "x"  # measured nothing about the arm: left out, as everywhere
UNSCORED: Final = "-"  # an open task's cell: nothing to check
MISSING: Final = "."  # no record of that run index


@dataclass(frozen=True)
class Cells:
    """One (task, arm, model) of one run: each cell's outcome by run index (`outcomes`, one of
    the characters above each), and over its valid cells the mean `score` (graded tasks), the
    mean `wall_s` and the mean `cost_usd` (None where no cell has the figure)."""

    task: str
    arm: str
    model: str
    outcomes: str
    score: float | None = None
    wall_s: float | None = None
    cost_usd: float | None = None

    @property
    def passed(self) -> int:
        return self.outcomes.count(PASS)

    @property
    def scored(self) -> int:
        return self.outcomes.count(PASS) + self.outcomes.count(FAIL)

    @property
    def valid(self) -> int:
        return self.scored + self.outcomes.count(UNSCORED)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task, "arm": self.arm, "model": self.model}
        out["outcomes"] = self.outcomes
        out.update(score=self.score, wall_s=self.wall_s, cost_usd=self.cost_usd)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Cells:
        """ValueError naming what is malformed."""
        texts = [data.get(k) for k in ("task", "arm", "model", "outcomes")]
        if not all(isinstance(t, str) for t in texts):
            raise ValueError(f"a task's cells need task, arm, model and outcomes as strings: {dict(data)!r}")
        task, arm, model, outcomes = (str(t) for t in texts)
        if set(outcomes) - {PASS, FAIL, INVALID, UNSCORED, MISSING}:
            raise ValueError(f"outcomes {outcomes!r} of {task}/{arm}/{model} hold an unknown mark")
        figures = [number(data.get(k)) for k in ("score", "wall_s", "cost_usd")]
        return cls(task, arm, model, outcomes, *figures)


def _mean(values: Iterable[float | None]) -> float | None:
    found = [v for v in values if v is not None]
    return statistics.fmean(found) if found else None


def _mark(rec: Record) -> str:
    if not is_valid(rec):
        return INVALID
    if not is_scored(rec):
        return UNSCORED
    return PASS if passed(rec) else FAIL


def cells_of(records: Iterable[Record]) -> tuple[Cells, ...]:
    """A run's records as `Cells`, one per (task, arm, model), each cell's last attempt that
    counts (`latest`); sorted by task, arm, model."""
    groups: dict[tuple[str, str, str], dict[int, Record]] = defaultdict(dict)
    for rec in latest(records):
        run = number(rec.get("run"))
        if run is None or run < 0 or run != int(run):
            continue  # a record without a run index cannot take its place in the row
        groups[(str(rec.get("task")), str(rec.get("arm")), str(rec.get("model")))][int(run)] = rec
    out = []
    for (task, arm, model), by_run in sorted(groups.items()):
        outcomes = "".join(_mark(by_run[r]) if r in by_run else MISSING for r in range(max(by_run) + 1))
        valid = [r for r in by_run.values() if is_valid(r)]
        out.append(
            Cells(
                task,
                arm,
                model,
                outcomes,
                score=_mean(number(r.get("score")) for r in valid),
                wall_s=_mean(number(r.get("wall_s")) for r in valid),
                cost_usd=_mean(number(r.get("cost_usd")) for r in valid),
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class Point:
    """One run as a history sees it: `run` (its run dir, as the index names it), `stamp` (when
    it started: the order of a series), the content hash of each task and arm, the `conditions`
    every point of a series shares (name -> value as shown: `claude`, `agent`, `judge model`,
    `envelope`) and its `Cells`."""

    run: str
    stamp: str
    tasks: Mapping[str, str]
    arms: Mapping[str, str | None]
    conditions: Mapping[str, str]
    cells: tuple[Cells, ...]

    def of(self, arm: str, model: str) -> list[Cells]:
        return [c for c in self.cells if c.arm == arm and c.model == model]

    def pairs(self) -> list[tuple[str, str]]:
        """The (arm, model)s this run measured, in the order its cells list them."""
        return list(dict.fromkeys((c.arm, c.model) for c in self.cells))


@dataclass(frozen=True)
class Series:
    """Comparable runs of one (arm, model), oldest first: `number` counts its series from 1,
    `why` says what broke the one before (empty for the first), `versions` each run where the
    arm's hash changed within it and how."""

    arm: str
    model: str
    number: int
    points: tuple[Point, ...]
    why: tuple[str, ...] = ()
    versions: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        return f"{self.arm} on {self.model}, series {self.number}"


def _short(value: str | None) -> str:
    return "none" if value is None else value[:12]


def _tasks_of(point: Point, arm: str, model: str) -> dict[str, str]:
    return {c.task: point.tasks.get(c.task, "?") for c in point.of(arm, model)}


def _breaks(before: Point, after: Point, arm: str, model: str) -> list[str]:
    """Why `after` cannot join `before`'s series of (arm, model), one reason a line."""
    why = []
    for name in sorted(set(before.conditions) | set(after.conditions)):
        a, b = before.conditions.get(name, "not recorded"), after.conditions.get(name, "not recorded")
        if a != b:
            why.append(f"{name} {a} → {b}")
    old, new = _tasks_of(before, arm, model), _tasks_of(after, arm, model)
    changed = sorted(t for t in old.keys() & new.keys() if old[t] != new[t])
    why += [f"task {t} changed (hash {_short(old[t])} → {_short(new[t])})" for t in changed]
    if added := sorted(new.keys() - old.keys()):
        why.append(f"task{'s' if len(added) > 1 else ''} {', '.join(added)} added")
    if dropped := sorted(old.keys() - new.keys()):
        why.append(f"task{'s' if len(dropped) > 1 else ''} {', '.join(dropped)} dropped")
    return why


def series(points: Sequence[Point]) -> list[Series]:
    """Every (arm, model)'s runs cut into comparable series, in the order the runs first name
    them; points are taken oldest first (by stamp, then run)."""
    ordered = sorted(points, key=lambda p: (p.stamp, p.run))
    pairs = list(dict.fromkeys(pair for p in ordered for pair in p.pairs()))
    out: list[Series] = []
    for arm, model in pairs:
        mine = [p for p in ordered if p.of(arm, model)]
        current: list[Point] = []
        why: list[str] = []
        versions: list[tuple[str, str]] = []
        number = 1
        for point in mine:
            if current and (reasons := _breaks(current[-1], point, arm, model)):
                out.append(Series(arm, model, number, tuple(current), tuple(why), tuple(versions)))
                current, why, versions, number = [], reasons, [], number + 1
            if current and current[-1].arms.get(arm) != point.arms.get(arm):
                was, now = current[-1].arms.get(arm), point.arms.get(arm)
                versions.append((point.run, f"arm {arm} changed (hash {_short(was)} → {_short(now)})"))
            current.append(point)
        out.append(Series(arm, model, number, tuple(current), tuple(why), tuple(versions)))
    return out


# -- figures of a series ------------------------------------------------------------------------


@dataclass(frozen=True)
class RunRate:
    """One (arm, model)'s pass rate in one run: passed of scored cells, its Wilson 95 % interval,
    the mean score of its graded tasks' cells, and how many cells were invalid."""

    run: str
    stamp: str
    passed: int
    scored: int
    invalid: int
    low: float
    high: float
    score: float | None

    @property
    def rate(self) -> float | None:
        return self.passed / self.scored if self.scored else None


def rate(point: Point, arm: str, model: str) -> RunRate:
    cells = point.of(arm, model)
    k, n = sum(c.passed for c in cells), sum(c.scored for c in cells)
    interval = wilson(k, n)
    scores = [c.score for c in cells if c.score is not None]
    score = statistics.fmean(scores) if scores else None
    invalid = sum(c.outcomes.count(INVALID) for c in cells)
    return RunRate(point.run, point.stamp, k, n, invalid, interval.low, interval.high, score)


@dataclass(frozen=True)
class Move:
    """A task whose pass rate changed between two consecutive runs of a series: `before` and
    `after` as (passed, scored); where the two runs share run indices, the cells paired by index
    that went from pass to fail (`lost`) and back (`gained`), with the sign test's two-sided `p`
    over those pairs (None when no cell pairs)."""

    task: str
    arm: str
    model: str
    run_before: str
    run_after: str
    before: tuple[int, int]
    after: tuple[int, int]
    lost: int = 0
    gained: int = 0
    p: float | None = None

    @property
    def kind(self) -> str:
        b, a = self.before[0] / self.before[1], self.after[0] / self.after[1]
        return "regressed" if a < b else "fixed"

    @property
    def change(self) -> float:
        """The pass rate's change, in points."""
        return 100 * (self.after[0] / self.after[1] - self.before[0] / self.before[1])


def _paired(before: str, after: str) -> tuple[int, int, bool]:
    lost = gained = 0
    pairs = False
    for a, b in zip(before, after, strict=False):
        if a in (PASS, FAIL) and b in (PASS, FAIL):
            pairs = True
            lost += a == PASS and b == FAIL
            gained += a == FAIL and b == PASS
    return lost, gained, pairs


def moves(one: Series) -> list[Move]:
    """Every task of the series whose pass rate moved from one run to the next, oldest first;
    a task the two runs do not both score does not move."""
    out = []
    for before, after in zip(one.points, one.points[1:], strict=False):
        old = {c.task: c for c in before.of(one.arm, one.model)}
        for new in after.of(one.arm, one.model):
            was = old.get(new.task)
            if was is None or not was.scored or not new.scored:
                continue
            if was.passed * new.scored == new.passed * was.scored:
                continue
            lost, gained, pairs = _paired(was.outcomes, new.outcomes)
            p = sign_test_p(gained, lost) if pairs else None
            out.append(
                Move(
                    new.task,
                    one.arm,
                    one.model,
                    before.run,
                    after.run,
                    (was.passed, was.scored),
                    (new.passed, new.scored),
                    lost,
                    gained,
                    p,
                )
            )
    return out


@dataclass(frozen=True)
class Flaky:
    """A task whose valid cells disagree at one arm hash within a series: `passed` of `scored`
    cells over `runs` runs; `rate` is the share on the minority side (0.5: a coin)."""

    task: str
    arm: str
    model: str
    arm_hash: str | None
    passed: int
    scored: int
    runs: int

    @property
    def rate(self) -> float:
        return min(self.passed, self.scored - self.passed) / self.scored


def flaky(one: Series) -> list[Flaky]:
    """The series' flaky tasks, the flakiest first: at one arm hash (and the series' task hash),
    cells of every run and every run index pooled, some passed and some failed."""
    pooled: dict[tuple[str, str | None], list[Cells]] = defaultdict(list)
    for point in one.points:
        for cells in point.of(one.arm, one.model):
            pooled[(cells.task, point.arms.get(one.arm))].append(cells)
    out = []
    for (task, arm_hash), found in pooled.items():
        k, n = sum(c.passed for c in found), sum(c.scored for c in found)
        if 0 < k < n:
            runs = sum(1 for c in found if c.scored)
            out.append(Flaky(task, one.arm, one.model, arm_hash, k, n, runs))
    return sorted(out, key=lambda f: (-f.rate, f.task))


@dataclass(frozen=True)
class Trend:
    """One task's figure (`wall_s` or `cost_usd`) in each run of a series (None: not measured)."""

    task: str
    figure: str
    values: tuple[float | None, ...]

    @property
    def last(self) -> float:
        return next((v for v in reversed(self.values) if v is not None), 0.0)


def trends(one: Series, figure: str, top: int = 3) -> list[Trend]:
    """The `top` tasks with the largest `figure` ("wall_s" or "cost_usd") in the series' last
    run, each with its value in every run of the series."""
    if figure not in ("wall_s", "cost_usd"):
        raise ValueError(f"no trend of {figure!r}: wall_s or cost_usd")
    tasks = {c.task for p in one.points for c in p.of(one.arm, one.model)}
    rows = []
    for task in sorted(tasks):
        values = tuple(
            next((getattr(c, figure) for c in p.of(one.arm, one.model) if c.task == task), None)
            for p in one.points
        )
        if any(v is not None for v in values):
            rows.append(Trend(task, figure, values))
    return sorted(rows, key=lambda t: -t.last)[:top]


_TICKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float | None]) -> str:
    """Rates in [0, 1] as one block character each (a space where there is none)."""
    return "".join(
        " " if v is None or math.isnan(v) else _TICKS[min(len(_TICKS) - 1, int(v * len(_TICKS)))]
        for v in values
    )


# -- the gate's comparison ---------------------------------------------------------------------


@dataclass(frozen=True)
class Base:
    """The runs a gate compares the last run with, and what it leaves out."""

    runs: tuple[str, ...]
    notes: tuple[str, ...] = field(default_factory=tuple)


def base_runs(points: Sequence[Point], candidate: str, window: int = 1) -> Base:
    """The `window` runs before `candidate` that every (arm, model) of the candidate can be
    compared with: each run's series of each shared (arm, model) is the candidate's (nothing but
    the arm's own hash may differ). The runs are the newest such, newest first; none when no
    earlier run is comparable. ValueError when `candidate` is not among the points."""
    if window < 1:
        raise ValueError(f"the window must be at least 1 run, not {window}")
    by_run = {p.run: p for p in points}
    if candidate not in by_run:
        raise ValueError(f"{candidate} is not among the runs")
    last = by_run[candidate]
    earlier = sorted(
        (p for p in points if (p.stamp, p.run) < (last.stamp, last.run)),
        key=lambda p: (p.stamp, p.run),
        reverse=True,
    )
    chosen: list[str] = []
    left_out: dict[str, list[str]] = defaultdict(list)  # why -> the runs left out for it
    for point in earlier:
        shared = [pair for pair in last.pairs() if point.of(*pair)]
        if not shared:
            continue
        reasons = sorted({r for pair in shared for r in _breaks(point, last, *pair)})
        if reasons:
            left_out["; ".join(reasons)].append(point.run)
            continue
        chosen.append(point.run)
        if len(chosen) == window:
            break
    notes = [f"{_listed(runs)} not comparable: {why}" for why, runs in left_out.items()]
    return Base(tuple(chosen), tuple(notes))


def _listed(runs: Sequence[str], limit: int = 3) -> str:
    shown = ", ".join(runs[:limit])
    return shown + (f" and {len(runs) - limit} more" if len(runs) > limit else "")


def pool(runs: Sequence[Sequence[Record]]) -> list[Record]:
    """The records of several runs as one base: each run's run indices moved apart (the k-th
    run's by k x 10,000) so its cells stay cells of their own, pooled per task by the verdict."""
    out = []
    for k, records in enumerate(runs):
        for rec in latest(records):
            run = number(rec.get("run"))
            moved = Record(**rec)
            moved["run"] = int(run or 0) + 10_000 * k
            out.append(moved)
    return out
