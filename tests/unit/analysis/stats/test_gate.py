"""Tests for `analysis/stats/gate.py`: the gate's rules parsed and tested against effects."""

from __future__ import annotations

import math

import pytest

from pytest_ponybench.analysis.stats.effects import Effect
from pytest_ponybench.analysis.stats.gate import compare_gate, parse_gate
from pytest_ponybench.analysis.stats.rows import verdicts
from tests.unit._support.records import record


def effect(metric: str, kind: str, low: float, high: float, lower: bool) -> Effect:
    return Effect(metric, kind, (low + high) / 2, low, high, 0.01, 0.01, 20, "undecided", 30, lower)


def test_parse_gate_aliases_and_signs() -> None:
    rules = parse_gate(" correct:-5pp, loc:+10% ,cost:20%,time:+15.5%,")
    assert [(r.metric, r.margin) for r in rules] == [
        ("correct", -5.0),
        ("total_loc", 10.0),
        ("cost_usd", 20.0),
        ("duration_ms", 15.5),
    ]
    assert parse_gate("") == []


@pytest.mark.parametrize(
    "bad",
    ["correct", "correct:-5", "correct:-5%", "loc:+10pp", "vibes:+1%", "cost:abc%", "loc:+10%%"],
)
def test_parse_gate_errors_name_the_rule(bad: str) -> None:
    with pytest.raises(ValueError, match=f"'{bad}'".replace("+", r"\+")):
        compare_gate([], f"pass:-1pp,{bad}")


def test_gate_fails_only_when_confidently_beyond_margin() -> None:
    rules = "correct:-5pp,loc:+10%,cost:+20%"
    fine = [
        effect("correct", "rate_diff", -8.0, 3.0, False),  # may be worse than -5: not confident
        effect("total_loc", "ratio", -30.0, -10.0, True),  # smaller code
        effect("cost_usd", "ratio", 5.0, 25.0, True),  # dearer, but not surely beyond +20 %
    ]
    assert compare_gate(fine, rules) == []
    bad = [
        effect("correct", "rate_diff", -30.0, -6.0, False),
        effect("total_loc", "ratio", 11.0, 40.0, True),
        effect("cost_usd", "ratio", 5.0, 25.0, True),
    ]
    assert compare_gate(bad, rules) == ["correct:-5pp", "loc:+10%"]
    unbounded = [effect("correct", "rate_diff", -math.inf, math.inf, False)]
    assert compare_gate(unbounded, rules) == []


def test_gate_on_real_verdicts() -> None:
    records = []
    for t in range(12):
        records.append(record(f"t{t}", "baseline", 0, True, 1.0))
        records.append(record(f"t{t}", "bloat", 0, t % 2 == 0, 2.0 + 0.1 * t))
    (row,) = verdicts(records)
    assert compare_gate(row["effects"], "correct:-5pp,cost:+20%,loc:+10%") == [
        "correct:-5pp",
        "cost:+20%",
    ]
