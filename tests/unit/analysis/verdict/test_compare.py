"""Tests for `analysis/verdict/compare.py`: two runs relabeled into one comparison."""

from __future__ import annotations

import pytest

from pytest_ponybench.analysis import procedure
from pytest_ponybench.analysis.verdict.compare import compare_runs, compare_verdicts
from pytest_ponybench.analysis.verdict.render import render_rows
from pytest_ponybench.core.records import Record
from tests.unit._support.records import effects, holds
from tests.unit._support.synth import Arm, synth


def test_two_runs_find_the_change_of_one_arm() -> None:
    base = synth({"baseline": Arm(0.5), "mine": Arm(0.3)}, seed=6)
    cand = synth({"baseline": Arm(0.5), "mine": Arm(0.9)}, seed=7)
    rows, records = compare_verdicts(base, cand, base_label="runs/A", cand_label="runs/B")
    by_model = {r["model"]: r for r in rows}
    assert set(by_model) == {"sonnet, arm baseline", "sonnet, arm mine"}
    mine = effects(by_model["sonnet, arm mine"])
    assert mine["pass"].verdict == "better" and holds(mine["pass"], 60.0)
    assert effects(by_model["sonnet, arm baseline"])["pass"].verdict == "undecided"
    # The family is both arms of the model, as within one run: 2 arms x 5 tested metrics, pass
    # weighing 0.9 of its arm's half, the rest 0.025 each.
    tested = [e for r in rows for e in r["effects"] if e.tested]
    assert len(tested) == 10
    weights = [(0.9 if e.metric == "pass" else 0.025) / 2 for e in tested]
    assert [e.p_adj for e in tested] == pytest.approx(procedure.weighted_holm([e.p for e in tested], weights))
    assert {r["family"].label for r in rows} == {"every arm of sonnet"}
    assert {r["arm"] for r in records} == {"runs/A", "runs/B"}
    assert {r["compare_arm"] for r in records} == {"baseline", "mine"}
    text = render_rows(rows, records)
    assert "runs/B vs runs/A (sonnet, arm mine): 20 paired tasks" in text


def test_two_runs_keep_only_the_shared_grid_and_refuse_disjoint_ones() -> None:
    base = synth({"mine": Arm(0.5)}, seed=8, tasks=10)
    cand = [r for r in synth({"mine": Arm(0.5), "other": Arm(0.5)}, seed=9, tasks=12)]
    merged = compare_runs(base, cand, base_label="a", cand_label="b")
    assert {r["task"] for r in merged} == {f"t{t:02d}" for t in range(10)}
    assert {r["compare_arm"] for r in merged} == {"mine"}

    elsewhere: list[Record] = [{**r, "task": "x" + r["task"]} for r in cand]
    with pytest.raises(ValueError, match="share no task"):
        compare_runs(base, elsewhere, base_label="a", cand_label="b")
    renamed: list[Record] = [{**r, "arm": "z"} for r in cand]
    with pytest.raises(ValueError, match=r"share no \(model, arm\)"):
        compare_runs(base, renamed, base_label="a", cand_label="b")
    with pytest.raises(ValueError, match="different labels"):
        compare_runs(base, cand, base_label="a", cand_label="a")
