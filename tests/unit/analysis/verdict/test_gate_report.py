"""Tests for `analysis/verdict/gate_report.py`: the gate's outcomes per (rule, arm), in words."""

from __future__ import annotations

import pytest

from pytest_ponybench.analysis import stats
from pytest_ponybench.analysis.verdict.gate_report import check_gate
from tests.unit._support.synth import EFFECT, NOISE, synth


def test_gate_fails_only_beyond_the_margin_with_confidence() -> None:
    rows = stats.verdicts(synth(EFFECT, seed=1))
    failures = check_gate(rows, "correct:-5pp,loc:+10%,cost:+20%")
    assert [f.rule for f in failures] == ["cost:+20%"]
    message = failures[0].describe()
    assert message.startswith("cost:+20%: mine vs baseline (sonnet): cost +")
    assert message.endswith("the whole interval is above +20%")
    # cost is about +100%: a 150% margin lies inside its interval's reach only if the interval
    # is wholly above it, which it is not.
    assert check_gate(rows, "cost:+150%") == []
    assert check_gate(stats.verdicts(synth(NOISE, seed=2)), "correct:-5pp,cost:+20%") == []
    with pytest.raises(ValueError, match="'cost:20'"):
        check_gate(rows, "cost:20")
