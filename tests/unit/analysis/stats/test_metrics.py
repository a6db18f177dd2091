"""Tests for `analysis/stats/metrics.py` (scoring/test_metrics.py is scoring/metrics.py's): names,
aliases, which metrics are tested, and a cell's value for each."""

from __future__ import annotations

import math

import pytest

# The module, not its names: pytest would collect tested_metrics as a test.
from pytest_ponybench.analysis.stats import metrics
from tests.unit._support.records import rec


def test_canonical_metric_takes_aliases_and_names_the_known_ones() -> None:
    assert [metrics.canonical_metric(n) for n in (" Cost ", "loc", "time", "duration", "score")] == [
        "cost_usd",
        "total_loc",
        "duration_ms",
        "duration_ms",
        "score",
    ]
    with pytest.raises(ValueError, match=r"known: pass, correct, safe, score, loc, cost, tokens, time\)"):
        metrics.canonical_metric("speed")


def test_the_primary_is_tested_first_and_the_breakdown_never() -> None:
    assert metrics.tested_metrics("pass", False) == ("pass", "total_loc", "cost_usd", "tokens", "duration_ms")
    assert metrics.tested_metrics("cost_usd", True) == (
        "cost_usd",
        "pass",
        "score",
        "total_loc",
        "tokens",
        "duration_ms",
    )
    assert metrics.all_metrics(True) == (
        "pass",
        "correct",
        "safe",
        "score",
        "total_loc",
        "cost_usd",
        "tokens",
        "duration_ms",
    )
    assert "score" not in metrics.all_metrics(False)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, (None, None)),
        ("3", (None, "not a number")),
        (True, (None, "not a number")),
        (math.nan, (None, "not finite")),
        (10**400, (None, "too large")),
        (-1, (None, "negative")),
        (0, (0.0, None)),
        (0.5, (None, "below 1")),
        (11, (None, "above 10")),
        (5, (5.0, None)),
    ],
)
def test_judge_number_says_why_a_number_is_not_a_measurement(
    value: object, expected: tuple[object, object]
) -> None:
    assert metrics.judge_number(value, (1.0, 10.0)) == expected


def test_a_cells_value_per_metric() -> None:
    # The scorer never said safe: pass is unknown (never a failure), correct is what it said.
    unscored_cell = rec("t", "a", safe=None)
    assert metrics.metric_value(unscored_cell, "pass") is None and metrics.unscored(unscored_cell, "pass")
    assert metrics.metric_value(unscored_cell, "correct") == 1.0 and not metrics.unscored(
        unscored_cell, "correct"
    )
    assert metrics.unscored(unscored_cell, "safe") and metrics.metric_value(unscored_cell, "safe") is None
    # One axis recorded false fails the cell whatever the other one says.
    assert metrics.pass_value(rec("t", "a", correct=False, safe="yes")) == 0.0
    assert metrics.pass_value(rec("t", "a", correct=float("nan"), safe=True)) is None
    cell = rec("t", "a", cache_read_tokens=1000, cache_write_tokens=5)
    assert metrics.metric_value(cell, "tokens") == 1115.0
    timed_out = rec("t", "a", duration_ms=None, timed_out=True, wall_s=2.5)
    assert metrics.metric_value(timed_out, "duration_ms") == 2500.0
    assert metrics.metric_value(rec("t", "a", total_loc=0), "total_loc") is None  # no code has no ratio
    assert metrics.bad_number(rec("t", "a", cost_usd=-1.0), "cost_usd") == "negative"
    assert metrics.metric_value(rec("t", "a", score=1.5), "score") is None
    assert metrics.bad_number(rec("t", "a", score=1.5), "score") == "above 1"
    assert not metrics.has_scores([cell]) and metrics.has_scores([cell, rec("t", "a", score=0.0)])
