"""Verdict blocks through the package's face, on synthetic records with known effects
(tests/unit/_support/synth.py, which verdict/test_compare and verdict/test_gate_report read
too); one effect's words are verdict/test_words'."""

from __future__ import annotations

import re

from pytest_ponybench.analysis import stats
from pytest_ponybench.analysis.verdict import render_verdicts, render_verdicts_markdown, why_undecided
from pytest_ponybench.core.records import Record
from tests.unit._support.records import effects, holds
from tests.unit._support.synth import EFFECT, NOISE, Arm, synth


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
    pass_eff = effects(row)["pass"]
    # Nothing decided: the block says why in one line, the primary's own reason.
    assert f"Decided: nothing; pass, the primary: {why_undecided(pass_eff)}." in text
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


# The one module's __all__ before it became a package: cli, terminal, htmlreport and the scripts
# import these.
EXPORTED = {
    *("GateFailure", "GateOutcome", "HEADER", "INTRO", "METRIC_NAMES", "SOURCE_ARM", "SOURCE_MODEL"),
    *("SOURCE_RUN", "TWIN_NOTE", "arm_verdicts", "arms_of", "bound_line", "check_gate", "compare_runs"),
    *("compare_verdicts", "decided_sentence", "family_line", "floor_line", "fmt_estimate", "fmt_interval"),
    *("fmt_p", "footer_lines", "gate_report", "grid_notes", "header_lines", "is_decided", "procedure_line"),
    *("reliability_lines", "render_rows", "render_rows_markdown", "render_verdicts"),
    *(
        "render_verdicts_markdown",
        "run_verdicts",
        "RunVerdicts",
        "undecided_clauses",
        "why_undecided",
        "word",
    ),
    # Added since: why a run gives no verdict block at all.
    "why_no_verdict",
}


def test_the_package_exports_what_the_one_module_did() -> None:
    from pytest_ponybench.analysis import verdict

    assert set(verdict.__all__) == EXPORTED
    assert [n for n in sorted(EXPORTED) if not hasattr(verdict, n)] == []
