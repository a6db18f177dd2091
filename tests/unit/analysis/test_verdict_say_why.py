"""Every suite decides or says why, and a crash never decides: a task graded only by graders is
decided on score, a floor is no "no effect", nothing decided is said in one line, `compare`
never prints nothing, a task one side lacks is named, durations below their resolution are not
tested, the noise floor stays readable, unscored cells are bounded like invalid ones (never a
failure on either side), the bound that held a verdict back says what would settle it, and
numbers that are not measurements are a data error (exit 2), not a failed gate."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from pytest_ponybench import cli
from pytest_ponybench.analysis import noise, stats, verdict
from pytest_ponybench.core.records import Record, loaded
from tests.unit._support.records import cell, effects, write_records


def graded(task: str, arm: str, score: float, run: int = 0, **extra: Any) -> Record:
    """A cell of a task graded only by graders (an open task with [[graders]] on score, as an
    imported claude plugin eval suite is): nothing to pass, a score."""
    return cell(task, arm, run, scored=False, score=score, **extra)


def test_a_task_graded_only_by_graders_is_decided_on_score() -> None:
    records = [graded(f"t{i}", "baseline", 0.2 + 0.01 * i) for i in range(8)]
    records += [graded(f"t{i}", "mine", 0.9 - 0.01 * i) for i in range(8)]
    (row,) = stats.verdicts(records)
    assert row["primary"] == "score" and row["primary_why"] is not None
    e = effects(row)
    assert e["score"].primary and e["score"].verdict == "better"
    assert e["pass"].n_tasks == 0  # no pass to have: not a failure, not a missing value
    text = verdict.render_verdicts(records)
    assert "score is the primary: every task is graded by graders alone, so no cell has a pass" in text
    assert "procedure: score first at p < 0.045" in text
    assert "Decided: score better (+" in text


def test_every_cell_scored_0_on_both_arms_is_a_floor_not_no_effect() -> None:
    records = [
        graded(f"t{i}", arm, 0.0, r) for i in range(6) for r in range(2) for arm in ("baseline", "mine")
    ]
    (row,) = stats.verdicts(records)
    score = effects(row)["score"]
    assert score.tied and score.verdict == "undecided"
    low, high = score.low, score.high
    assert low < -20 and high > 20  # 0/12 against 0/12: the cells' binomial noise, no [0, 0]
    said = verdict.decided_sentence(row["effects"])
    assert said == (
        'Decided: nothing; score, the primary: every cell scored 0 on both arms: a floor, not "no '
        "effect\" (the tasks are too hard to tell the arms apart); the interval is the cells' binomial noise."
    )
    assert "score: negligible" not in verdict.render_verdicts(records)


def test_every_cell_passed_on_both_arms_is_a_ceiling() -> None:
    records = [cell(f"t{i}", arm) for i in range(8) for arm in ("baseline", "mine")]
    (row,) = stats.verdicts(records)
    assert verdict.why_undecided(effects(row)["pass"]).startswith(
        'every cell passed on both arms: a ceiling, not "no effect"'
    )


def test_one_paired_task_says_so() -> None:
    (row,) = stats.verdicts([cell("t0", "baseline", correct=False), cell("t0", "mine")])
    assert verdict.decided_sentence(row["effects"]) == (
        "Decided: nothing; pass, the primary: only 1 paired task: no spread to test against; a "
        "verdict needs more tasks."
    )


def test_compare_never_prints_nothing(tmp_path: Path, capsys: Any) -> None:
    records = [cell(f"t{i}", arm, scored=False) for i in range(3) for arm in ("baseline", "mine")]
    run = write_records(tmp_path, records)
    assert cli.main(["compare", run]) == cli.USAGE
    captured = capsys.readouterr()
    assert "nothing to compare: no task has checks or graders" in captured.err
    assert verdict.why_no_verdict([cell("t0", "baseline")]) == (
        "only the arm 'baseline' ran: nothing to compare it with"
    )


def test_a_task_one_side_lacks_is_named_and_left_out_of_pass_k() -> None:
    records = [cell(f"t{i}", arm, r) for i in range(4) for r in range(2) for arm in ("baseline", "mine")]
    records += [cell("only_mine", "mine", r, correct=False) for r in range(2)]
    (row,) = stats.verdicts(records)
    assert "left out of the pairs and of pass^k: 1 task with cells of mine only (only_mine)" in row["notes"]
    assert effects(row)["pass"].n_tasks == 4
    mine = row["reliability"]["mine"]
    assert (mine.tasks, mine.every) == (4, 1.0)  # its failing with-only task is not in pass^2


def test_durations_in_whole_seconds_are_not_tested_below_their_resolution() -> None:
    records = [
        cell(f"t{i}", arm, r, duration_ms=1000.0 * (1 + (i + r + (arm == "mine")) % 3))
        for i in range(8)
        for r in range(2)
        for arm in ("baseline", "mine")
    ]
    (row,) = stats.verdicts(records)
    time = effects(row)["duration_ms"]
    assert (
        not time.tested
        and time.untested == "durations in whole seconds (1-3 s): below their resolution, not tested"
    )
    assert verdict.word(time) == "not tested" and verdict.why_undecided(time) == time.untested
    assert "time" not in verdict.procedure_line(row)
    # Whole seconds long enough that half a second is under 5 % of them are tested.
    long = [loaded({**r, "duration_ms": 20_000.0 + 1000.0 * (i % 3)}) for i, r in enumerate(records)]
    (row,) = stats.verdicts(long)
    assert effects(row)["duration_ms"].tested


def test_the_noise_floor_stays_readable() -> None:
    assert noise.floor_text("cost", "ratio", 6.66e26) == "cost: none under a 10-fold change"
    assert noise.floor_text("cost", "ratio", math.inf) == "cost: none under a 10-fold change"
    assert noise.floor_text("cost", "ratio", 12.4) == "cost ±12%"
    assert noise.floor_text("pass", "rate_diff", 140.0) == "pass: none under 100 pp"
    assert noise.floor_text("pass", "rate_diff", 26.2) == "pass ±26 pp"
    assert noise.floor_text("cost", "ratio", 0.2) == "cost under ±1%"
    # Costs a thousand times apart from task to task, on 3 tasks: a floor no reader can use.
    records = [cell(f"t{i}", "baseline", cost_usd=0.01) for i in range(3)]
    records += [cell(f"t{i}", "mine", cost_usd=0.01 * 1000.0 ** (i - 1)) for i in range(3)]
    (row,) = stats.verdicts(records)
    floor = verdict.floor_line(row)
    assert floor is not None and "cost: none under a 10-fold change" in floor and "e+" not in floor


def test_every_baseline_cell_unscored_never_makes_the_arm_better(tmp_path: Path, capsys: Any) -> None:
    """The scorer never ran on the baseline (`correct: null` in every cell): once counted as
    failures, +81 points and a passing gate; now left out and bounded."""
    records = [cell(f"t{i}", "baseline", r, correct=None, safe=None) for i in range(10) for r in range(3)]
    records += [cell(f"t{i}", "mine", r, correct=(i + r) % 4 != 0) for i in range(10) for r in range(3)]
    (row,) = stats.verdicts(records)
    e = effects(row)
    assert e["pass"].verdict != "better" and e["pass"].n_tasks == 0
    (bound,) = row["bounds"]
    assert (bound.base_unscored, bound.base_invalid, bound.arm_unscored) == (30, 0, 0)
    assert bound.worst.estimate < 0 < bound.best.estimate  # any baseline could have done better
    run = write_records(tmp_path, records)
    assert cli.main(["compare", run, "--fail-on", "pass:-5pp"]) == cli.GATE_FAILED  # nothing measured
    out = capsys.readouterr().out
    assert (
        "missing cells bounded: mine 0% (0 of 30) invalid, baseline 0% (0 of 30) invalid, 30 unscored" in out
    )
    assert "pass: cells with no correct/safe score (the scorer did not run: left out, bounded like" in out
    assert (
        "cells passed: mine 23/30 (77%, Wilson 59-88%), baseline no scored cell (30 unscored, 0 invalid)"
        in out
    )


def test_unscored_arm_cells_never_make_it_worse() -> None:
    records = [cell(f"t{i}", "baseline", r, correct=(i + r) % 2 == 0) for i in range(10) for r in range(3)]
    records += [cell(f"t{i}", "mine", r, correct=None, safe=None) for i in range(10) for r in range(3)]
    (row,) = stats.verdicts(records)
    assert effects(row)["pass"].verdict != "worse"
    assert row["reliability"]["mine"].tasks == 0 and row["reliability"]["mine"].short == 10


def _vetoed_records() -> list[Record]:
    # The arm passes every cell it ran, the baseline half; but 8 of the arm's 20 cells are invalid
    # at random: the bound (invalid cells failed) holds the gain back.
    records = [cell(f"t{i}", "baseline", r, correct=r == 0) for i in range(10) for r in range(2)]
    records += [
        cell(
            f"t{i}",
            "mine",
            r,
            valid=not (i < 8 and r == 1),
            error=None if i >= 8 or r == 0 else "API error 529",
        )
        for i in range(10)
        for r in range(2)
    ]
    return records


def test_the_bound_not_the_data_says_what_would_settle_it(tmp_path: Path, capsys: Any) -> None:
    (row,) = stats.verdicts(_vetoed_records())
    e = effects(row)["pass"]
    assert e.verdict == "undecided" and e.vetoed
    assert verdict.why_undecided(e).startswith("the bound on the invalid cells, not the data")
    run = write_records(tmp_path, _vetoed_records())
    (Path(run) / "run.json").write_text(json.dumps({"argv": ["/venv/bin/pytest", "benchmarks", "-n", "2"]}))
    assert cli.main(["compare", run]) == cli.OK
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "undecided by the bound, not the data" in x)
    assert "on valid cells alone pass +50.0 pp" in line and "better at its level p < 0.045" in line
    assert line.endswith(f"rerun the invalid cells: pytest benchmarks --resume {run}")


def test_a_gate_on_numbers_that_are_not_measurements_exits_2(tmp_path: Path, capsys: Any) -> None:
    records = [cell(f"t{i}", "baseline") for i in range(6)]
    records += [cell(f"t{i}", "mine", cost_usd=-1.0) for i in range(6)]
    run = write_records(tmp_path, records)
    assert cli.main(["compare", run, "--fail-on", "cost:+20%"]) == cli.USAGE
    out = capsys.readouterr().out
    assert "NOT MEASURED cost:+20% (mine vs baseline, sonnet): nothing measured, its numbers are not" in out
    assert "(6 negative)" in out and "gate not decided" in out
    # No valid cell at all is still nothing measured: a failed gate, exit 1.
    invalid = [cell(f"t{i}", "baseline") for i in range(3)]
    invalid += [cell(f"t{i}", "mine", valid=False, error="API error 529") for i in range(3)]
    other = tmp_path / "other"
    other.mkdir()
    assert cli.main(["compare", write_records(other, invalid), "--fail-on", "cost:+20%"]) == cli.GATE_FAILED
