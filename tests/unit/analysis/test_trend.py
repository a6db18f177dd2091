"""analysis/trend.py on plain points: series and their breaks, an arm's new version inside a
series, the tasks that moved (paired by run index), flaky tasks at one arm hash, the slowest
tasks' trend, and which earlier runs a gate compares with."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from pytest_ponybench.analysis import trend
from pytest_ponybench.core.records import Record, loaded

CONDITIONS = {
    "agent": "claude",
    "CLI version": "2.1.332",
    "judge model": "offline-judge",
    "envelope": "2 CPUs",
}


def point(
    run: str,
    outcomes: Mapping[tuple[str, str], str],
    *,
    arms: Mapping[str, str] | None = None,
    tasks: Mapping[str, str] | None = None,
    model: str = "m",
    wall: Mapping[str, float] | None = None,
    cond: Mapping[str, str] | None = None,
) -> trend.Point:
    cells = tuple(
        trend.Cells(task, arm, model, marks, wall_s=(wall or {}).get(task))
        for (task, arm), marks in sorted(outcomes.items())
    )
    names = {a for _, a in outcomes}
    return trend.Point(
        run=run,
        stamp=f"2026-01-{run[-1]:0>2}",
        tasks={t: (tasks or {}).get(t, f"h-{t}") for t, _ in outcomes},
        arms={a: (arms or {}).get(a, f"a-{a}") for a in names},
        conditions={**CONDITIONS, **(cond or {})},
        cells=cells,
    )


def test_cells_of_records_marks_each_run_index_and_keeps_the_last_valid_attempt() -> None:
    recs = [
        {"task": "t", "arm": "a", "model": "m", "run": 0, "valid": True, "correct": True, "safe": True},
        {"task": "t", "arm": "a", "model": "m", "run": 1, "valid": False, "error": "api"},
        {"task": "t", "arm": "a", "model": "m", "run": 1, "valid": True, "correct": False, "safe": True},
        {"task": "t", "arm": "a", "model": "m", "run": 3, "valid": False, "error": "api", "wall_s": 9.0},
        {"task": "o", "arm": "a", "model": "m", "run": 0, "valid": True, "scored": False, "wall_s": 2.0},
    ]
    cells = {c.task: c for c in trend.cells_of([loaded(r) for r in recs])}
    assert cells["t"].outcomes == "10.x"  # run 2 left no record; run 3 measured nothing
    assert (cells["t"].passed, cells["t"].scored, cells["t"].valid) == (1, 2, 2)
    assert cells["t"].wall_s is None  # the invalid cell's time is not the task's
    assert cells["o"].outcomes == "-" and cells["o"].wall_s == 2.0
    assert trend.Cells.from_json(cells["t"].to_json()) == cells["t"]
    with pytest.raises(ValueError, match="unknown mark"):
        trend.Cells.from_json({**cells["t"].to_json(), "outcomes": "1?"})


def test_a_series_breaks_where_the_cli_or_a_task_changes_and_says_why() -> None:
    points = [
        point("r1", {("t1", "a"): "1", ("t2", "a"): "0"}),
        point("r2", {("t1", "a"): "1", ("t2", "a"): "1"}),
        point("r3", {("t1", "a"): "1", ("t2", "a"): "1"}, cond={"CLI version": "2.1.340"}),
        point(
            "r4", {("t1", "a"): "1", ("t2", "a"): "1"}, cond={"CLI version": "2.1.340"}, tasks={"t2": "h-new"}
        ),
        point(
            "r5",
            {("t1", "a"): "1", ("t2", "a"): "1", ("t3", "a"): "0"},
            cond={"CLI version": "2.1.340"},
            tasks={"t2": "h-new"},
        ),
    ]
    found = trend.series(list(reversed(points)))  # the order given does not matter: stamps do
    assert [(s.number, [p.run for p in s.points]) for s in found] == [
        (1, ["r1", "r2"]),
        (2, ["r3"]),
        (3, ["r4"]),
        (4, ["r5"]),
    ]
    assert found[0].why == ()
    assert found[1].why == ("CLI version 2.1.332 → 2.1.340",)
    assert found[2].why == ("task t2 changed (hash h-t2 → h-new)",)
    assert found[3].why == ("task t3 added",)


def test_the_envelope_judge_and_agent_break_a_series_too() -> None:
    base = point("r1", {("t", "a"): "1"})
    for key, value in (("envelope", "4 CPUs"), ("judge model", "sonnet"), ("agent", "opencode")):
        other = point("r2", {("t", "a"): "1"}, cond={key: value})
        (_first, second) = trend.series([base, other])
        assert second.number == 2 and second.why == (f"{key} {CONDITIONS[key]} → {value}",)


def test_a_new_arm_hash_is_a_new_version_in_the_series_not_a_break() -> None:
    points = [
        point("r1", {("t", "a"): "1"}, arms={"a": "v1"}),
        point("r2", {("t", "a"): "1"}, arms={"a": "v2"}),
    ]
    (one,) = trend.series(points)
    assert [p.run for p in one.points] == ["r1", "r2"]
    assert one.versions == (("r2", "arm a changed (hash v1 → v2)"),)


def test_each_arm_and_model_is_its_own_series() -> None:
    points = [point("r1", {("t", "a"): "1", ("t", "b"): "0"}), point("r2", {("t", "a"): "1"}, model="n")]
    assert [(s.arm, s.model, len(s.points)) for s in trend.series(points)] == [
        ("a", "m", 1),
        ("b", "m", 1),
        ("a", "n", 1),
    ]


def test_pass_rate_per_run_has_a_wilson_interval_and_counts_invalid_cells_apart() -> None:
    p = point("r1", {("t1", "a"): "11x", ("t2", "a"): "100"})
    r = trend.rate(p, "a", "m")
    assert (r.passed, r.scored, r.invalid) == (3, 5, 1)
    assert r.rate == pytest.approx(0.6)
    assert r.low == pytest.approx(0.2307, abs=1e-3) and r.high == pytest.approx(0.8824, abs=1e-3)


def test_moves_name_regressed_and_fixed_tasks_paired_by_run_index() -> None:
    points = [
        point("r1", {("t1", "a"): "111", ("t2", "a"): "000", ("t3", "a"): "101"}),
        point("r2", {("t1", "a"): "000", ("t2", "a"): "110", ("t3", "a"): "011"}),
    ]
    (one,) = trend.series(points)
    moved = {m.task: m for m in trend.moves(one)}
    assert set(moved) == {"t1", "t2"}  # t3 kept 2 of 3: its cells swapped, its rate did not move
    assert moved["t1"].kind == "regressed" and moved["t1"].change == pytest.approx(-100)
    assert (moved["t1"].lost, moved["t1"].gained, moved["t1"].p) == (3, 0, 0.25)
    assert moved["t2"].kind == "fixed" and (moved["t2"].before, moved["t2"].after) == ((0, 3), (2, 3))


def test_moves_of_runs_without_shared_run_indices_are_unpaired() -> None:
    points = [point("r1", {("t", "a"): "1"}), point("r2", {("t", "a"): ".0"})]
    (move,) = trend.moves(trend.series(points)[0])
    assert move.kind == "regressed" and move.p is None and (move.lost, move.gained) == (0, 0)


def test_flaky_tasks_are_those_whose_valid_cells_disagree_at_one_arm_hash() -> None:
    points = [
        point("r1", {("steady", "a"): "11", ("coin", "a"): "10", ("edge", "a"): "1x"}, arms={"a": "v1"}),
        point("r2", {("steady", "a"): "11", ("coin", "a"): "01", ("edge", "a"): "11"}, arms={"a": "v1"}),
        point("r3", {("steady", "a"): "00", ("coin", "a"): "11", ("edge", "a"): "11"}, arms={"a": "v2"}),
    ]
    (one,) = trend.series(points)
    flaky = trend.flaky(one)
    # "steady" passed at v1 and failed at v2: a change of the arm, not a flake; "edge"'s invalid
    # cell is not a disagreement.
    assert [(f.task, f.arm_hash, f.passed, f.scored, f.runs) for f in flaky] == [("coin", "v1", 2, 4, 2)]
    assert flaky[0].rate == 0.5


def test_the_slowest_tasks_trend_is_the_last_run_s_slowest_with_every_run_s_value() -> None:
    points = [
        point("r1", {("a", "x"): "1", ("b", "x"): "1", ("c", "x"): "1"}, wall={"a": 1.0, "b": 5.0, "c": 3.0}),
        point("r2", {("a", "x"): "1", ("b", "x"): "1", ("c", "x"): "1"}, wall={"a": 9.0, "b": 2.0}),
    ]
    top = trend.trends(trend.series(points)[0], "wall_s", top=2)
    assert [(t.task, t.values) for t in top] == [("a", (1.0, 9.0)), ("c", (3.0, None))]
    with pytest.raises(ValueError, match="no trend"):
        trend.trends(trend.series(points)[0], "tokens")


def test_sparkline_draws_rates_as_blocks() -> None:
    assert trend.sparkline([0.0, 0.5, 1.0, None]) == "▁▅█ "


def test_the_gate_compares_with_the_newest_comparable_runs_and_names_the_rest() -> None:
    points = [
        point("r1", {("t", "a"): "1"}),
        point("r2", {("t", "a"): "1"}, cond={"envelope": "8 CPUs"}),
        point("r3", {("t", "a"): "1"}, arms={"a": "v2"}),
        point("r4", {("t", "a"): "0"}, arms={"a": "v3"}),
    ]
    assert trend.base_runs(points, "r4").runs == ("r3",)
    wider = trend.base_runs(points, "r4", window=3)
    assert wider.runs == ("r3", "r1")
    assert wider.notes == ("r2 not comparable: envelope 8 CPUs → 2 CPUs",)
    assert trend.base_runs(points, "r1").runs == ()
    with pytest.raises(ValueError, match="at least 1"):
        trend.base_runs(points, "r4", window=0)


def test_pooled_runs_keep_their_cells_apart() -> None:
    one = [Record(task="t", arm="a", model="m", run=0, valid=True)]
    pooled = trend.pool([one, one, one])
    assert [r["run"] for r in pooled] == [0, 10_000, 20_000]
