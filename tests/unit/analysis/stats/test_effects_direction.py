"""`--direction better`: the pre-declared one-sided test of the primary for better at 0.04 of a
lone arm's 0.045 (worse at the remaining 0.005), its interval's two ends at those levels, in the
verdicts, the words, the gate and `compare`; the default stays two-sided."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench import cli
from pytest_ponybench.analysis import procedure, stats, verdict
from pytest_ponybench.analysis.stats.effects import directed_p, paired_rate_diff, tails
from pytest_ponybench.core.records import Record
from tests.unit._support.records import cell, write_records


def moved(up: int, down: int, tasks: int = 20) -> list[Record]:
    """One run per task: the arm passes where the baseline fails on `up` tasks, the reverse on
    `down`, and both pass the rest; nothing else differs."""
    records = []
    for i in range(tasks):
        mine, base = (True, False) if i < up else (False, True) if i < up + down else (True, True)
        records += [cell(f"t{i:02d}", "baseline", correct=base), cell(f"t{i:02d}", "mine", correct=mine)]
    return records


def pass_of(rows: list[stats.ArmVerdict]) -> stats.Effect:
    (row,) = rows
    return next(e for e in row["effects"] if e.metric == "pass")


def test_the_directional_p_and_tails() -> None:
    assert procedure.BETTER_SHARE == pytest.approx(8 / 9)
    # Better side: half the two-sided p over 8/9; worse side: over 1/9.
    assert directed_p(0.056, 6.0, False, "better") == pytest.approx(0.028 * 9 / 8)
    assert directed_p(0.056, -6.0, False, "better") == pytest.approx(0.028 * 9)
    assert directed_p(0.056, -6.0, True, "better") == pytest.approx(0.028 * 9 / 8)  # a cost that fell
    assert directed_p(0.3, 0.0, False, "better") == 1.0
    assert directed_p(0.056, 6.0, False, "two-sided") == 0.056
    low, high = tails(0.95, "better")
    assert (low, high) == pytest.approx((0.05 * 8 / 9, 0.05 / 9))
    assert tails(0.95, "better", lower_is_better=True) == pytest.approx((0.05 / 9, 0.05 * 8 / 9))
    assert tails(0.95) == pytest.approx((0.025, 0.025))
    with pytest.raises(ValueError, match="unknown direction 'up'"):
        tails(0.95, "up")


def test_a_gain_the_two_sided_test_misses_is_better_when_declared() -> None:
    records = moved(6, 1)  # paired t: two-sided p 0.056, one-sided 0.028
    two = pass_of(stats.verdicts(records))
    one = pass_of(stats.verdicts(records, direction="better"))
    assert two.verdict == "undecided" and two.low < 0
    assert one.verdict == "better" and one.low > 0 and one.direction == "better"
    # The interval's better end is at 4.4 % one-sided, its other end at 0.6 %: wider above.
    assert one.high - one.estimate > one.estimate - one.low
    assert one.p == pytest.approx(two.p / 2 * 9 / 8)
    (row,) = stats.verdicts(records, direction="better")
    assert verdict.procedure_line(row).startswith(
        "procedure: pass first, in the declared direction: better at p < 0.04 one-sided, worse at p < 0.005"
    )


def test_a_loss_needs_stronger_evidence_when_better_was_declared() -> None:
    records = moved(0, 5)  # 5 of 20 tasks lost: two-sided p 0.021, worse at 0.045
    two = pass_of(stats.verdicts(records))
    assert two.verdict == "worse"
    worse = pass_of(stats.verdicts(records, direction="better"))
    assert worse.verdict == "undecided" and worse.p == pytest.approx(two.p / 2 * 9)  # 0.094
    assert pass_of(stats.verdicts(moved(0, 12), direction="better")).verdict == "worse"


def test_only_the_primary_is_directional() -> None:
    (row,) = stats.verdicts(moved(6, 1), direction="better")
    assert {e.metric: e.direction for e in row["effects"]}["cost_usd"] == "two-sided"
    with pytest.raises(ValueError, match="unknown direction"):
        stats.verdicts(moved(6, 1), direction="sideways")


def test_zero_spread_takes_newcombes_interval_at_the_declared_tails() -> None:
    tasks = [f"t{i}" for i in range(8)]
    e = paired_rate_diff({t: [0.0] for t in tasks}, {t: [1.0] for t in tasks}, direction="better")
    both = paired_rate_diff({t: [0.0] for t in tasks}, {t: [1.0] for t in tasks})
    assert e.low > both.low and e.verdict == "better"


def _run_json(run: str, **options: Any) -> None:
    info = {"argv": ["pytest", "benchmarks"], "options": options}
    (Path(run) / "run.json").write_text(json.dumps(info))


def test_compare_uses_the_declared_direction_unless_told(tmp_path: Path, capsys: Any) -> None:
    run = write_records(tmp_path, moved(6, 1))
    assert cli.main(["compare", run]) == cli.OK
    assert "pass first at p < 0.045" in capsys.readouterr().out
    _run_json(run, direction="better")
    assert cli.main(["compare", run]) == cli.OK
    out = capsys.readouterr().out
    assert "in the declared direction" in out and "Decided: pass better" in out
    assert cli.main(["compare", run, "--direction", "two-sided"]) == cli.OK
    assert "pass first at p < 0.045" in capsys.readouterr().out


def test_a_sequential_run_is_two_sided(tmp_path: Path, capsys: Any) -> None:
    run = write_records(tmp_path, moved(6, 1))
    plan = {"plan": {"max_runs": 3}, "looks": [{"number": 1, "runs": 1, "fraction": 1 / 3, "outcomes": {}}]}
    (Path(run) / "run.json").write_text(json.dumps({"sequential": plan}))
    assert cli.main(["compare", run, "--direction", "better"]) == cli.USAGE
    assert "the run's sequential design is two-sided" in capsys.readouterr().err
