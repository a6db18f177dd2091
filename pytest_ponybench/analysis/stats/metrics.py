"""The metrics a verdict compares: their names and aliases, which are rates and which ratios,
which are tested, and a cell's value for each.

One place decides what a number in a record means to the statistics: a crash never makes an
arm look better or worse (a cell whose correct/safe is missing or not a real bool, a scorer
that did not run, is *unscored*: left out of the rates and bounded like an invalid cell, never
counted as a failure on either side), a number that is not a measurement (negative, not finite,
out of `LIMITS`) is left out like a missing one and named, and a timed-out session's wall time
stands in for its missing duration.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pytest_ponybench.core.records import TOKEN_FIELDS, Record
from pytest_ponybench.core.records import flag as record_flag
from pytest_ponybench.core.records import number as record_number

__all__ = [
    "BOUNDED",
    "BREAKDOWN",
    "FAMILY",
    "LIMITS",
    "METRIC_ALIASES",
    "MISSING_WHY",
    "PRIMARY",
    "RATE_METRICS",
    "RATIO_METRICS",
    "SCORE",
    "SHORT_NAMES",
    "all_metrics",
    "bad_number",
    "canonical_metric",
    "has_scores",
    "judge_number",
    "judged",
    "metric_value",
    "pass_value",
    "short_name",
    "tested_metrics",
    "unscored",
]

RATE_METRICS = ("pass", "correct", "safe")
SCORE = "score"  # the graders' continuous score in [0, 1]: a rate, shown only where cells carry one
RATIO_METRICS = ("total_loc", "cost_usd", "tokens", "duration_ms")
FAMILY = ("pass", *RATIO_METRICS)  # tested by default: the primary and the secondaries
BREAKDOWN = ("correct", "safe")  # shown as pass's breakdown, not tested on their own
PRIMARY = "pass"
BOUNDED = ("pass", SCORE)  # rates whose missing cells have a worst case (0) and a best case (1)
# Short names people type in gate rules.
METRIC_ALIASES = {
    "loc": "total_loc",
    "cost": "cost_usd",
    "time": "duration_ms",
    "duration": "duration_ms",
}
SHORT_NAMES = {"total_loc": "loc", "cost_usd": "cost", "duration_ms": "time"}

# Why a valid cell has no value for a metric, in words a reader of the notes understands.
MISSING_WHY = {
    "pass": "no correct/safe score (the scorer did not run: left out, bounded like invalid cells)",
    "correct": "no correct score (left out)",
    "safe": "no safe score (left out)",
    SCORE: "have no score",
    "total_loc": "wrote no code",
    "cost_usd": "reported no finite cost",
    "tokens": "reported no tokens",
    "duration_ms": "reported no time",
}

# What a measurement can be. Outside this range a number is a writer's bug or a hand edit, not a
# session: it is left out of its metric like a missing value, and the notes name it. Zero is
# not out of range (no code, no cost reported: the ordinary missing of MISSING_WHY), except
# that a score of 0 is a score.
LIMITS: dict[str, tuple[float, float]] = {
    "total_loc": (1.0, 1e9),
    "cost_usd": (1e-9, 1e6),
    "tokens": (1.0, 1e12),  # each token field
    "duration_ms": (1.0, 1e10),  # 1 ms to 115 days
    "wall_s": (1e-3, 1e7),
    SCORE: (0.0, 1.0),
}


def short_name(metric: str) -> str:
    return SHORT_NAMES.get(metric, metric)


def all_metrics(has_score: bool) -> tuple[str, ...]:
    """Every metric a verdict row shows, in its order (score only where cells carry one)."""
    return RATE_METRICS + ((SCORE,) if has_score else ()) + RATIO_METRICS


def canonical_metric(name: str) -> str:
    """A metric's record name from what a user types (`cost` -> `cost_usd`); ValueError naming
    the known ones for anything else."""
    key = name.strip().lower()
    metric = METRIC_ALIASES.get(key, key)
    known = RATE_METRICS + (SCORE,) + RATIO_METRICS
    if metric not in known:
        names = ", ".join(short_name(m) for m in known)
        raise ValueError(f"unknown metric {name!r} (known: {names})")
    return metric


def tested_metrics(primary: str, has_score: bool) -> tuple[str, ...]:
    """The metrics a block tests: the primary first, then the secondaries in their order."""
    rest = [m for m in (*FAMILY[:1], *((SCORE,) if has_score else ()), *FAMILY[1:]) if m != primary]
    return (primary, *rest)


def has_scores(records: Iterable[Record]) -> bool:
    """Whether any cell carries a graders' score: only then is score a metric of the verdicts."""
    return any(rec.get(SCORE) is not None for rec in records)


def judge_number(value: Any, limits: tuple[float, float]) -> tuple[float | None, str | None]:
    """(the value, None), or (None, why it is not a measurement), or (None, None) when absent.

    Bad: not a number (a string, a bool), not finite (NaN, +/-inf, an integer past the float
    range), negative, or outside `limits`. A zero is (0.0, None): the ordinary "none"."""
    if value is None:
        return None, None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None, "not a number"
    as_float = record_number(value)
    if as_float is None:
        return None, "too large" if isinstance(value, int) else "not finite"
    if as_float < 0:
        return None, "negative"
    low, high = limits
    if as_float == 0.0:
        return 0.0, None
    if as_float < low:
        return None, f"below {low:g}"
    if as_float > high:
        return None, f"above {high:g}"
    return as_float, None


def _ratio_value(record: Record, metric: str) -> tuple[float | None, str | None]:
    """A ratio metric's raw value (0.0 included) or why it is bad."""
    if metric == "tokens":
        parts = [judge_number(record.get(k), LIMITS["tokens"]) for k in TOKEN_FIELDS]
        bad = next((why for _, why in parts if why is not None), None)
        if bad is not None:
            return None, bad
        present = [v for v, _ in parts if v is not None]
        return (sum(present) if present else None), None
    value, bad = judge_number(record.get(metric), LIMITS[metric])
    if (
        bad is None
        and value is None
        and metric == "duration_ms"
        and record_flag(record.get("timed_out")) is True
    ):
        # A timed-out session has no reported duration: its wall time stands in for it.
        wall, bad = judge_number(record.get("wall_s"), LIMITS["wall_s"])
        value = None if wall is None else 1000.0 * wall
    return value, bad


def bad_number(record: Record, metric: str) -> str | None:
    """Why a cell's number for `metric` is not a measurement (see LIMITS), or None."""
    return judged(record, metric)[1]


def judged(record: Record, metric: str) -> tuple[float | None, str | None]:
    """A valid cell's value for a metric (`metric_value`) and why its number is not a
    measurement (`bad_number`), read once: collect asks both of every cell."""
    if metric == "pass":
        return pass_value(record), None
    if metric in ("correct", "safe"):
        axis = record_flag(record.get(metric))
        return (None if axis is None else float(axis)), None
    if metric == SCORE:
        return judge_number(record.get(SCORE), LIMITS[SCORE])
    value, bad = _ratio_value(record, metric)
    return (None if value is None or value <= 0 else value), bad


def pass_value(record: Record) -> float | None:
    """1.0 passed, 0.0 failed (an axis recorded false), None unscored (no axis false, and one
    not recorded as a real bool: the scorer did not run)."""
    flags = [record_flag(record.get(k)) for k in ("correct", "safe")]
    if False in flags:
        return 0.0
    return 1.0 if all(f is True for f in flags) else None


def metric_value(record: Record, metric: str) -> float | None:
    """A valid cell's value for a metric, or None when it has none (left out, and counted).

    Rates: a cell whose correct/safe is missing or not a real bool (`NaN`, a scorer that did not
    run) has no pass value: it is unscored, left out and bounded like an invalid cell (a crash
    never makes an arm look better, nor worse). The graders' `score` is a number in [0, 1].
    Ratios: numbers that are not measurements (`bad_number`) are missing; zero code is "wrote
    no code", which has no ratio; a timed-out session has no reported duration, so its wall
    time stands in for it."""
    return judged(record, metric)[0]


def unscored(record: Record, metric: str) -> bool:
    """A rate left out because the scorer gave it nothing to go by (so the notes count it)."""
    if metric in ("pass", "correct", "safe"):
        return metric_value(record, metric) is None
    return False
