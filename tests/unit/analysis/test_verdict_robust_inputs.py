"""Records as they come from disk: non-finite numbers, unscored cells, all-invalid arms, cells
without code or cost, time-outs. Each input here once crashed `compare`, failed the gate on no
evidence, hid an arm or dropped tasks without a word; each is now counted and said."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench import cli
from pytest_ponybench.analysis import report, stats, verdict
from pytest_ponybench.core.records import Record, loaded
from tests.unit._support.records import cell, effects, write_records


def test_an_infinite_cost_is_missing_not_a_crash(tmp_path: Path, capsys: Any) -> None:
    records = [cell(f"t{i}", arm, r) for i in range(6) for arm in ("baseline", "mine") for r in range(2)]
    # json.dumps writes float("inf") as Infinity, as a hand-edited or foreign file may hold it.
    records[3]["cost_usd"] = float("inf")
    run = write_records(tmp_path, records)
    assert "Infinity" in (Path(run) / "results.jsonl").read_text()
    assert cli.main(["compare", run]) == cli.OK
    out = capsys.readouterr().out
    assert "mine vs baseline (sonnet): 6 paired tasks" in out
    assert "cost: cells that reported no finite cost, left out: mine 1 of 12, baseline 0 of 12" in out
    (row,) = stats.verdicts(records)
    cost = effects(row)["cost_usd"]
    assert cost.n_tasks == 6 and all(abs(v) < 1e6 for v in (cost.estimate, cost.low, cost.high))


def test_a_zero_spread_interval_neither_fails_nor_passes_the_gate(tmp_path: Path, capsys: Any) -> None:
    # Two tasks, both 50 % more code in the arm: no spread, p = 1.000. This once became the
    # point interval [+50%, +50%] and failed loc:+10%.
    records = [cell(t, "baseline", total_loc=40) for t in ("a", "b")]
    records += [cell(t, "mine", total_loc=60) for t in ("a", "b")]
    (row,) = stats.verdicts(records)
    loc = effects(row)["total_loc"]
    assert loc.zero_spread and loc.p_adj == 1.0  # the sign test: 2 tasks, p 0.5
    assert (loc.low, loc.high) == (-100.0, float("inf"))
    assert verdict.check_gate([row], "loc:+10%") == []
    run = write_records(tmp_path, records)
    assert cli.main(["compare", run, "--fail-on", "loc:+10%"]) == cli.OK
    out = capsys.readouterr().out
    assert "UNTESTED loc:+10%: mine vs baseline (sonnet): loc +50.0%" in out
    assert "every one of 2 tasks moved by the same amount, too few for the sign test (6)" in out
    assert "FAIL" not in out


def test_an_all_invalid_arm_is_named_with_its_count(tmp_path: Path, capsys: Any) -> None:
    records = [cell(f"t{i}", "baseline") for i in range(4)]
    records += [cell(f"t{i}", "mine", valid=False, error="API error 529") for i in range(4)]
    run = write_records(tmp_path, records)
    assert cli.main(["compare", run]) == cli.OK
    out = capsys.readouterr().out
    assert "mine vs baseline (sonnet): no task has valid cells of both; nothing to compare" in out
    assert "mine has no valid cell (4 of 4 invalid): nothing to compare" in out
    assert "cells passed: mine no valid cell (4 invalid), baseline 4/4" in out


def test_an_all_invalid_baseline_is_not_a_missing_baseline(tmp_path: Path, capsys: Any) -> None:
    records = [cell(f"t{i}", "baseline", valid=False, error="API error 401") for i in range(3)]
    records += [cell(f"t{i}", "mine") for i in range(3)]
    run = write_records(tmp_path, records)
    # The gate cannot pass on nothing: no paired task is a failure of the gate, said as such.
    assert cli.main(["compare", run, "--fail-on", "pass:-5pp"]) == cli.GATE_FAILED
    captured = capsys.readouterr()
    assert "no arm named" not in captured.err
    assert "baseline has no valid cell (3 of 3 invalid): nothing to compare" in captured.out
    assert "gate failed: nothing measured for pass:-5pp (mine vs baseline, sonnet)" in captured.out
    assert cli.main(["summary", run]) == cli.OK
    assert "baseline has no valid cell (3 of 3 invalid)" in capsys.readouterr().out


def test_cells_without_code_are_counted_not_silently_dropped() -> None:
    # The arm writes nothing on 5 of 10 tasks. loc used to read +50% from the 5 that remained.
    records = [cell(f"t{i}", "baseline", total_loc=40) for i in range(10)]
    records += [cell(f"t{i}", "mine", total_loc=60 if i < 5 else 0, correct=i < 5) for i in range(10)]
    (row,) = stats.verdicts(records)
    assert effects(row)["total_loc"].n_tasks == 5
    assert effects(row)["pass"].n_tasks == 10  # writing nothing fails the task, it is not left out
    assert (
        "loc: 5 of 10 tasks left out (no value on one side); cells that wrote no code, left out: "
        "mine 5 of 10, baseline 0 of 10"
    ) in row["notes"]


def test_a_time_out_counts_its_wall_time() -> None:
    # The arm times out on half the tasks (no result event: no duration, no cost). Its time
    # used to come from the cells that finished only.
    records = [cell(f"t{i}", "baseline", duration_ms=20_000) for i in range(8)]
    for i in range(8):
        if i < 4:
            records.append(
                cell(f"t{i}", "mine", duration_ms=None, cost_usd=None, timed_out=True, wall_s=300.0)
            )
        else:
            records.append(cell(f"t{i}", "mine", duration_ms=20_000))
    (row,) = stats.verdicts(records)
    time = effects(row)["duration_ms"]
    assert time.n_tasks == 8
    assert time.estimate > 100.0  # 4 tasks at 15x the time: far from "no change"
    assert effects(row)["cost_usd"].n_tasks == 4
    assert (
        "cost: 4 of 8 tasks left out (no value on one side); cells that reported no finite cost, left "
        "out: mine 4 of 8, baseline 0 of 8"
    ) in row["notes"]


def test_nan_correct_is_unscored_never_a_failure(tmp_path: Path) -> None:
    records = [cell(f"t{i}", "baseline", correct=False) for i in range(6)]
    mine = [cell(f"t{i}", "mine") for i in range(6)]
    run = write_records(
        tmp_path, records, [json.dumps(r).replace('"correct": true', '"correct": NaN') for r in mine]
    )
    read_back = cli.load_records(run)
    assert all(r["correct"] != r["correct"] for r in read_back if r["arm"] == "mine")  # NaN read back
    (row,) = stats.verdicts(read_back)
    e = effects(row)
    # NaN is no score: mine's cells are left out (not counted as failures that would make it
    # "worse") and bounded like invalid cells.
    assert e["pass"].n_tasks == 0 and e["pass"].verdict == "undecided"
    (bound,) = row["bounds"]
    assert (bound.arm_unscored, bound.arm_cells, bound.base_unscored) == (6, 6, 0)
    assert (bound.worst.estimate, bound.best.estimate) == (0.0, 100.0)
    assert (
        "pass: cells with no correct/safe score (the scorer did not run: left out, bounded like "
        "invalid cells): mine 6 of 6, baseline 0 of 6"
    ) in row["notes"]


def test_an_invalid_rate_gap_warns() -> None:
    records = [cell(f"t{i}", "baseline", r) for i in range(10) for r in range(2)]
    records += [
        cell(f"t{i}", "mine", r, **({"valid": False} if i < 3 and r == 0 else {}))
        for i in range(10)
        for r in range(2)
    ]
    (row,) = stats.verdicts(records)
    assert (
        "warning: mine has 15% invalid cells (3 of 20), baseline 0% (0 of 20); invalid cells are "
        "left out, so its quality figures may be biased"
    ) in row["notes"]
    same = stats.verdicts([r for r in records if r.get("valid", True) or r["task"] == "t0"])
    assert not any(n.startswith("warning") for n in same[0]["notes"])


def test_cells_that_reached_outside_are_counted_per_arm_in_the_verdict_notes() -> None:
    from pytest_ponybench.analysis import stats

    def cell(arm: str, task: str, run: int, **extra: object) -> Record:
        return loaded(
            {
                "task": task,
                "arm": arm,
                "model": "m",
                "run": run,
                "valid": True,
                "correct": True,
                "safe": True,
                **extra,
            }
        )

    recs = [cell(a, t, r) for a in ("baseline", "mine") for t in ("t1", "t2") for r in (0, 1)]
    recs[5]["outside_reads"] = ["/etc/passwd"]
    recs[6]["outside_writes"] = ["/tmp/x"]
    (row,) = stats.verdicts(recs)
    assert (
        "outside the workspace (the audit): mine reached out in 2 of 4 cells, baseline in 0 of 4"
        in row["notes"]
    )


def test_an_open_task_is_left_out_of_the_verdicts() -> None:
    from pytest_ponybench.analysis import stats

    def cell(arm: str, task: str, ok: bool, scored: bool = True) -> Record:
        return loaded(
            {
                "task": task,
                "arm": arm,
                "model": "m",
                "run": 0,
                "valid": True,
                "correct": ok,
                "safe": ok,
                "scored": scored,
                "total_loc": 5,
            }
        )

    recs = [cell(a, f"t{i}", a == "baseline") for a in ("baseline", "mine") for i in range(4)]
    recs += [cell("baseline", "open", False, False), cell("mine", "open", True, False)]
    (row,) = stats.verdicts(recs)
    pass_effect = next(e for e in row["effects"] if e.metric == "pass")
    assert pass_effect.n_tasks == 4 and pass_effect.estimate == -100.0


# --- every bad number: a defined result and a note, never a crash ----------------------------

BAD = {
    "NaN": (float("nan"), "not finite"),
    "+inf": (float("inf"), "not finite"),
    "-inf": (float("-inf"), "not finite"),
    "1e308": (1e308, "above"),
    "5e-324": (5e-324, "below"),
    "400 digits": (10**400, "too large"),
    "-400 digits": (-(10**400), "too large"),
    "negative": (-5, "negative"),
    "a string": ("12", "not a number"),
}
# field -> (the metric's short name in the notes, extra fields the cell needs for it to count)
FIELDS: dict[str, tuple[str, dict[str, Any]]] = {
    "cost_usd": ("cost", {}),
    "input_tokens": ("tokens", {}),
    "output_tokens": ("tokens", {}),
    "cache_read_tokens": ("tokens", {}),
    "cache_write_tokens": ("tokens", {}),
    "duration_ms": ("time", {}),
    "wall_s": ("time", {"duration_ms": None, "timed_out": True}),
    "total_loc": ("loc", {}),
    "score": ("score", {}),
}


def bad_run(field: str, value: Any, extra: dict[str, Any]) -> list[Record]:
    records = [
        cell(f"t{i}", arm, r, score=0.5) for i in range(6) for arm in ("baseline", "mine") for r in range(2)
    ]
    # t0 (both runs of both arms) holds the bad value.
    return [loaded({**rec, **extra, field: value}) for rec in records[:4]] + records[4:]


def finite_or_edge(x: float) -> bool:
    return not math.isnan(x)


@pytest.mark.parametrize("field", list(FIELDS))
@pytest.mark.parametrize("bad", list(BAD))
def test_every_bad_number_gives_a_defined_verdict_and_a_note(
    field: str, bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    value, why = BAD[bad]
    if field == "score" and bad == "5e-324":
        pytest.skip("5e-324 is a score in [0, 1]")
    name, extra = FIELDS[field]
    records = bad_run(field, value, extra)
    (row,) = stats.verdicts(records)
    for e in row["effects"]:
        assert all(finite_or_edge(x) for x in (e.estimate, e.low, e.high, e.p)), e
        assert e.p_adj is None or 0.0 <= e.p_adj <= 1.0
    note = next((n for n in row["notes"] if n.startswith("numbers that are not measurements")), "")
    assert f"{name}: mine 2 {why}" in note and f"baseline 2 {why}" in note, row["notes"]
    # The same through the command, from a file as json.dumps writes it (NaN, Infinity, 400 digits).
    run = write_records(tmp_path, records)
    assert cli.main(["compare", run, "--fail-on", "pass:-50pp"]) == cli.OK
    out = capsys.readouterr().out
    assert "numbers that are not measurements, left out as missing" in out
    assert cli.main(["summary", run]) == cli.OK
    assert cli.main(["noise", run]) == cli.OK
    assert report.render_table(records)
    capsys.readouterr()


def test_extreme_numbers_straight_into_the_statistics() -> None:
    # The inputs that crashed before: 1e308 over a small baseline overflowed log(a / b), and a
    # baseline of 5e-324 divided to infinity.
    base = {f"t{i}": [0.5 + 0.01 * i] for i in range(8)}
    huge = {f"t{i}": [1e308] for i in range(8)}
    tiny = {f"t{i}": [5e-324] for i in range(8)}
    for a, b in ((huge, base), (base, tiny), (huge, tiny), (tiny, huge)):
        e = stats.paired_log_ratio(b, a, "cost_usd")
        assert e.n_tasks == 8 and not any(math.isnan(x) for x in (e.estimate, e.low, e.high, e.p))
    assert stats.paired_log_ratio(base, huge, "cost_usd").estimate == math.inf
    assert stats.paired_log_ratio(huge, base, "cost_usd").estimate == pytest.approx(-100.0)
    # Task means of values near the float range do not overflow on the way.
    assert stats.task_means({"a": [1e308, 1e308]}) == {"a": 1e308}
    assert stats.task_means({"a": [1e308, float("inf")]}) == {}
    assert stats.needed_tasks(math.inf, 0.1) is None and stats.needed_tasks(math.nan, 0.1) is None
    assert stats.t_interval([1e300, -1e300, 1e300])[1].high == math.inf
    assert stats.t_two_sided_p(math.nan, 5) == 1.0


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (10**400, None),
        (-(10**400), None),
        (1e308, 1e308),
        (5e-324, 5e-324),
    ],
)
def test_records_number_takes_any_json_number(value: Any, expected: float | None) -> None:
    from pytest_ponybench.core import records

    assert records.number(value) == expected
    assert records.tokens(loaded({"input_tokens": value, "output_tokens": 1e308})) in (None, int(1e308))
    # The sum overflows.
    assert records.tokens(loaded({"input_tokens": 1e308, "output_tokens": 1e308})) is None


def test_an_internal_error_is_not_a_failed_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = write_records(tmp_path, [cell(f"t{i}", arm) for i in range(6) for arm in ("baseline", "mine")])

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(stats, "verdicts", broken)
    assert cli.main(["compare", run, "--fail-on", "pass:-5pp"]) == cli.INTERNAL == 3
    err = capsys.readouterr().err
    assert "Traceback" in err and "ponybench: internal error (a bug; please report it" in err
