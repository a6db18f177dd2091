"""Tests for `analysis/verdict/words.py`: why an undecided effect is undecided, in words."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_ponybench.analysis import stats
from pytest_ponybench.analysis.verdict.words import why_undecided


def effect(
    kind: str,
    estimate: float,
    low: float,
    high: float,
    p_adj: float,
    needed: int | None,
    n: int = 20,
    **more: Any,
) -> stats.Effect:
    return stats.Effect(
        metric="pass" if kind == "rate_diff" else "cost_usd",
        kind=kind,
        estimate=estimate,
        low=low,
        high=high,
        p=p_adj,
        p_adj=p_adj,
        n_tasks=n,
        verdict="undecided",
        needed_tasks=needed,
        lower_is_better=kind == "ratio",
        level=0.01,
        spread=stats.Spread(sd=0.3, within_var=None, runs=3.0),
        **more,
    )


@pytest.mark.parametrize(
    ("e", "said"),
    [
        (
            effect("rate_diff", 2.0, -20.0, 24.0, 1.0, 150),
            "needs about 130 more tasks (150 in all at 3 runs) for 80% power on a 10-point difference "
            "at its level p < 0.01",
        ),
        (
            effect("ratio", 2.0, -20.0, 24.0, 1.0, 50),
            "needs about 30 more tasks (50 in all at 3 runs) for 80% power on a 10% change at its "
            "level p < 0.01",
        ),
        (
            effect("rate_diff", 25.0, 6.8, 43.2, 0.176, 121),
            "needs about 101 more tasks (121 in all at 3 runs) for 80% power on a 10-point difference "
            "at its level p < 0.01; the 95% interval excludes 0, but a verdict needs the family's "
            "level (p 0.176 adjusted)",
        ),
        (
            effect("rate_diff", 5.0, -20.0, 30.0, 1.0, 150, needed_runs=9),
            "needs about 130 more tasks (150 in all at 3 runs) for 80% power on a 10-point difference "
            "at its level p < 0.01, or 9 runs on each of these 20 tasks",
        ),
        (
            effect("rate_diff", -50.0, -100.0, 100.0, 1.0, 8, n=2, zero_spread=True),
            "every task moved by the same amount, so the sign test decides: it needs at least 8 tasks "
            "all one way at its level p < 0.01",
        ),
        (
            effect("rate_diff", 5.0, -20.0, 30.0, 1.0, 150, tested=False),
            "the breakdown of pass (which axis moved), not tested on its own",
        ),
        (effect("rate_diff", 1.0, -4.0, 6.0, 1.0, 12), "the interval rules out a 10-point difference"),
        (effect("ratio", 1.0, -4.0, 6.0, 1.0, 12), "the interval rules out a 10% change"),
        (effect("ratio", 1.0, -9.5, 6.0, 1.0, 12), "the interval still holds no change with 20 tasks"),
        (effect("ratio", -0.6, -1.2, -0.1, 0.59, 12), "the interval rules out a 10% change"),
        (
            effect("ratio", 15.0, 2.0, 30.0, 0.2, 12),
            "the 95% interval excludes 0, but a verdict needs the family's level (p 0.200 adjusted)",
        ),
        (effect("rate_diff", 0.0, 0.0, 0.0, 1.0, None, n=0), "no paired task measured it"),
    ],
)
def test_why_undecided_in_words(e: stats.Effect, said: str) -> None:
    assert why_undecided(e) == said
