"""Verdict blocks, the two-run comparison and the gate, on synthetic records with known effects."""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any

import pytest

from pytest_ponybench.analysis import procedure, stats
from pytest_ponybench.analysis.verdict import (
    check_gate,
    compare_runs,
    compare_verdicts,
    render_rows,
    render_verdicts,
    render_verdicts_markdown,
    why_undecided,
)
from pytest_ponybench.core.records import Record, loaded


@dataclass(frozen=True)
class Arm:
    pass_rate: float
    loc: float = 1.0  # true ratio to the task's baseline LOC
    cost: float = 1.0  # true ratio to the task's baseline cost


def synth(
    arms: dict[str, Arm], seed: int, tasks: int = 20, runs: int = 3, model: str = "sonnet"
) -> list[Record]:
    """Records of one run. A task's size and price come from the task alone, so two runs made
    with different seeds share their tasks; the cells' noise comes from `seed`."""
    rng = random.Random(seed)
    out: list[Record] = []
    for t in range(tasks):
        trng = random.Random(f"task-{t}")
        loc0, cost0 = trng.uniform(20, 200), trng.uniform(0.05, 0.5)
        tok0, ms0 = trng.uniform(1e4, 1e5), trng.uniform(2e4, 9e4)
        for run in range(runs):
            for name, arm in arms.items():
                out.append(
                    loaded(
                        {
                            "cell_id": f"t{t:02d}-{name}-{model}-r{run}",
                            "task": f"t{t:02d}",
                            "arm": name,
                            "model": model,
                            "run": run,
                            "attempt": 1,
                            "valid": True,
                            "correct": rng.random() < arm.pass_rate,
                            "safe": True,
                            "total_loc": round(loc0 * arm.loc * math.exp(rng.gauss(0, 0.1))),
                            "cost_usd": cost0 * arm.cost * math.exp(rng.gauss(0, 0.1)),
                            "input_tokens": round(tok0 * math.exp(rng.gauss(0, 0.1))),
                            "output_tokens": 900,
                            "duration_ms": ms0 * math.exp(rng.gauss(0, 0.1)),
                        }
                    )
                )
    return out


EFFECT = {"baseline": Arm(0.3), "mine": Arm(0.9, loc=0.8, cost=2.0)}
NOISE = {"baseline": Arm(0.5), "mine": Arm(0.5)}


def effects(row: stats.ArmVerdict) -> dict[str, stats.Effect]:
    return {e.metric: e for e in row["effects"]}


def holds(e: stats.Effect, value: float) -> bool:
    return e.low <= value <= e.high


def test_known_effect_is_decided_and_the_interval_holds_it() -> None:
    records = synth(EFFECT, seed=1)
    (row,) = stats.verdicts(records)
    eff = effects(row)
    assert eff["pass"].verdict == "better" and holds(eff["pass"], 60.0)
    assert eff["total_loc"].verdict == "better" and holds(eff["total_loc"], -20.0)
    assert eff["cost_usd"].verdict == "worse" and holds(eff["cost_usd"], 100.0)

    text = render_verdicts(records)
    assert "mine vs baseline (sonnet): 20 paired tasks" in text
    assert "cells passed: mine " in text and "baseline " in text and "Wilson" in text
    pass_line = re.search(
        r"^  pass +([+-]\d+\.\d) pp +\[([+-]\d+\.\d), ([+-]\d+\.\d)\] pp +(\w+)", text, re.M
    )
    assert pass_line is not None, text
    est, low, high, word = pass_line.groups()
    assert word == "better" and float(low) <= 60.0 <= float(high)
    assert re.search(r"^  cost +\+\d+\.\d% +\[\+\d+\.\d%, \+\d+\.\d%\] +worse", text, re.M), text
    assert "Decided: pass better (+" in text and "cost worse (+" in text


def test_pure_noise_is_undecided_and_says_what_would_decide_it() -> None:
    records = synth(NOISE, seed=3)
    (row,) = stats.verdicts(records)
    assert {e.verdict for e in row["effects"]} == {"undecided"}
    text = render_verdicts(records)
    assert "Decided: nothing yet." in text
    pass_eff = effects(row)["pass"]
    assert pass_eff.needed_tasks is not None and pass_eff.needed_tasks > 20
    more = pass_eff.needed_tasks - 20
    # The hint is the verdict's own test at pass's level in the procedure: 0.9 of 5 %.
    assert re.search(
        rf"\bpass: needs about {more} more tasks \({pass_eff.needed_tasks} "
        r"in all at 3 runs\) for 80% power on a 10-point difference at its level p < 0.045",
        text,
    ), text
    assert (
        "  procedure: pass first at p < 0.045; loc, cost, tokens, time share p < 0.005 "
        "(weighted Holm: a decided metric hands its level on)\n"
        "  family: every arm of sonnet (1 comparison, 5 tests), familywise error <= 5%\n"
    ) in text
    assert "correct, safe: the breakdown of pass (which axis moved), not tested on its own" in text
    assert "the interval rules out a 10% change" in text  # loc/cost/tokens/time barely move
    assert not re.search(r"\b(better|worse)\b", text)


def test_calibration_over_many_seeds() -> None:
    """Noise is decided (any metric) in at most about alpha of the runs, and the 95% interval
    of a real +60 pp effect holds it in about 95% of the runs. Seeds are fixed: not flaky."""
    seeds = range(100, 130)
    decided_on_noise = sum(
        any(e.verdict != "undecided" for e in stats.verdicts(synth(NOISE, seed=s))[0]["effects"])
        for s in seeds
    )
    assert decided_on_noise <= 3
    held = [effects(stats.verdicts(synth(EFFECT, seed=s))[0])["pass"] for s in seeds]
    assert sum(holds(e, 60.0) for e in held) >= 26
    assert all(e.verdict == "better" for e in held)


def test_markdown_has_a_table_and_the_sentences() -> None:
    md = render_verdicts_markdown(synth(EFFECT, seed=1))
    lines = md.splitlines()
    assert lines[0] == "### ponybench verdict"
    assert "#### mine vs baseline (sonnet)" in lines
    header = lines.index("| metric | change | 95% interval | verdict | tasks | p (adj.) |")
    assert lines[header + 1] == "|---|---:|---:|---|---:|---:|"
    assert lines[header + 2].startswith("| pass | +") and "| **better** |" in lines[header + 2]
    assert any(line.startswith("**Decided:** pass better") for line in lines)
    assert any(line.startswith("**Undecided:**") for line in lines)


def test_nothing_to_compare_renders_nothing() -> None:
    only_base = synth({"baseline": Arm(0.5)}, seed=3)
    no_base = synth({"a": Arm(0.5), "b": Arm(0.5)}, seed=3)
    for records in ([], only_base, no_base):
        assert render_verdicts(records) == ""
        assert render_verdicts_markdown(records) == ""
    assert "b vs a (sonnet)" in render_verdicts(no_base, baseline="a")


def test_invalid_cells_do_not_count_and_a_resumed_cell_counts_once() -> None:
    records = synth(EFFECT, seed=1)
    broken: list[Record] = [
        {**r, "valid": False, "correct": False, "cost_usd": 1e6, "attempt": 0}
        for r in records
        if r["arm"] == "mine"
    ]
    # A resume appends a second attempt of some cells: the last valid attempt wins.
    redo: list[Record] = [{**r, "attempt": 2} for r in records[:10]]
    assert render_verdicts(broken + records + redo) == render_verdicts(records)


def test_a_model_without_baseline_cells_says_so() -> None:
    records = synth(EFFECT, seed=1) + synth({"mine": Arm(0.9)}, seed=4, model="haiku")
    text = render_verdicts(records)
    assert "mine vs baseline (haiku): no task has valid cells of both; nothing to compare" in text
    assert "mine vs baseline (sonnet): 20 paired tasks" in text


def test_few_tasks_ask_for_more() -> None:
    one = synth(NOISE, seed=5, tasks=1)
    (row,) = stats.verdicts(one)
    assert why_undecided(effects(row)["pass"]) == (
        "only 1 paired task: no spread to test against; a verdict needs more tasks"
    )


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
