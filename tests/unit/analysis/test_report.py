"""Aggregation and the summary table on hand-made records; every expected number counted by hand.

Costs and durations are chosen to be exact in binary floating point, so figures compare with ==.
"""

from __future__ import annotations

from typing import Any

from pytest_ponybench.analysis.report import (
    COLUMNS,
    MATRIX_ROWS_IN_TERMINAL,
    aggregate,
    arm_order,
    model_totals,
    render_matrix,
    render_table,
    summarize,
    terminal_matrix,
)
from pytest_ponybench.core.records import Record, latest, loaded, passed, tokens


def rec(task: str, arm: str, model: str, run: int, **fields: Any) -> Record:
    return loaded({"task": task, "arm": arm, "model": model, "run": run, "valid": True, **fields})


# t1 / baseline / m1: two scored runs, one invalid run, one crashed run (no score at all).
B0 = rec(
    "t1",
    "baseline",
    "m1",
    0,
    correct=True,
    safe=True,
    total_loc=10,
    test_loc=0,
    cost_usd=0.25,
    input_tokens=100,
    output_tokens=20,
    cache_read_tokens=0,
    cache_write_tokens=0,
    turns=2,
    duration_ms=3000,
    reply_words=40,
    timed_out=False,
)
B1 = rec(
    "t1",
    "baseline",
    "m1",
    1,
    correct=True,
    safe=False,
    total_loc=30,
    test_loc=6,
    cost_usd=0.5,
    input_tokens=200,
    output_tokens=40,
    cache_read_tokens=60,
    cache_write_tokens=None,
    turns=4,
    duration_ms=5000,
    reply_words=10,
)
B2 = rec(
    "t1",
    "baseline",
    "m1",
    2,
    valid=False,
    error="HTTP 529",
    correct=True,
    safe=True,
    total_loc=999,
    test_loc=99,
    cost_usd=8.0,
    input_tokens=10_000,
    turns=50,
    duration_ms=99_000,
    reply_words=999,
    timed_out=True,
)
B3 = rec(
    "t1",
    "baseline",
    "m1",
    3,
    error="scorer crashed",
    total_loc=0,
    cost_usd=0.75,
    turns=None,
    duration_ms=7000,
    timed_out=True,
)

# t1 / a_arm / m1 (sorts before "baseline" by name, still shown after it): retried cells.
A0_FIRST = rec("t1", "a_arm", "m1", 0, attempt=1, valid=False, error="HTTP 500", cost_usd=4.0)
A0 = rec(
    "t1",
    "a_arm",
    "m1",
    0,
    attempt=2,
    correct=True,
    safe=True,
    total_loc=8,
    test_loc=0,
    cost_usd=0.5,
    input_tokens=100,
    turns=1,
    duration_ms=2000,
    reply_words=5,
)
A1 = rec(
    "t1",
    "a_arm",
    "m1",
    1,
    attempt=1,
    correct=False,
    safe=True,
    total_loc=12,
    test_loc=3,
    cost_usd=0.25,
    input_tokens=300,
    turns=3,
    duration_ms=4000,
    reply_words=15,
)
A1_LATER = rec("t1", "a_arm", "m1", 1, attempt=2, valid=False, error="HTTP 429", cost_usd=2.0)
A2 = rec("t1", "a_arm", "m1", 2, attempt=1, valid=False, error="no result event")

T2 = rec(
    "t2",
    "baseline",
    "m1",
    0,
    correct=True,
    safe=True,
    total_loc=5,
    test_loc=0,
    cost_usd=1.0,
    input_tokens=50,
    turns=1,
    duration_ms=1000,
    reply_words=3,
)
M2 = rec("t1", "baseline", "m2", 0, correct=False, safe=False, total_loc=0, cost_usd=0.125)

RECORDS = [B0, B1, B2, B3, A0_FIRST, A0, A1, A1_LATER, A2, T2, M2]


def row(rows: list[dict[str, Any]], task: str, model: str, arm: str) -> dict[str, Any]:
    (found,) = [r for r in rows if (r["task"], r["model"], r["arm"]) == (task, model, arm)]
    return found


def test_pass_needs_correct_and_safe_and_tokens_add_up() -> None:
    assert passed(B0) and not passed(B1) and not passed(B3)
    assert tokens(B0) == 120
    assert tokens(B1) == 300  # a missing part counts as 0
    assert tokens(B3) is None  # no usage at all is unknown, not 0


def test_latest_keeps_the_last_valid_attempt_per_cell() -> None:
    kept = latest(RECORDS)
    assert len(kept) == 9  # 11 attempts of 9 cells
    assert A0 in kept and A0_FIRST not in kept  # a retry that worked replaces the failure
    assert A1 in kept and A1_LATER not in kept  # a later invalid attempt never replaces it
    assert A2 in kept  # no valid attempt at all: the last attempt stands


def test_latest_without_a_valid_attempt_keeps_the_last_one() -> None:
    first = rec("t", "a", "m", 0, valid=False, error="one")
    second = rec("t", "a", "m", 0, valid=False, error="two")
    assert latest([first, second]) == [second]
    again = rec("t", "a", "m", 0, correct=True, safe=True)
    later = rec("t", "a", "m", 0, correct=False, safe=True)
    assert latest([first, again, second, later]) == [later]  # the last *valid* attempt


def test_summarize_baseline_t1_by_hand() -> None:
    assert summarize([B0, B1, B2, B3]) == {
        "n": 4,
        "valid": 3,
        "invalid": 1,
        "timed_out": 2,  # counted over every cell, the invalid one included
        "wrote": 2 / 3,  # B3 wrote nothing
        # B2's True is invalid and out; B3 has no score (the scorer crashed): unscored, left out
        # and counted, never a failure.
        "correct": 1.0,
        "safe": 1 / 2,
        "passed": 1 / 2,
        "loc_median": 20,  # median of 10 and 30: B3 (0 lines) and B2 (invalid) are out
        "tests_written": 1 / 3,
        "tokens_mean": 210,  # mean of 120 and 300; B3 reported no usage
        "cost_per_run": 0.5,  # (0.25 + 0.5 + 0.75) / 3: the invalid run's $8 is out
        "cost_per_pass": 0.75,  # the scored cells' 0.75 dollars over one pass
        "reply_words_median": 25,
        "time_s_mean": 5.0,  # (3 + 5 + 7) / 3
        "turns_mean": 3,  # B3's turns are None
        "scored": 2,  # every valid cell had checks (no open task); B3's scorer said nothing
        "unscored": 1,
        "outside": 0.0,  # no agent read or wrote outside its workspace
        "skill_used": None,  # no plugin registered a skill
        "score_mean": None,  # no task declares graders
    }


def test_summarize_empty_and_all_invalid_groups() -> None:
    nothing = summarize([])
    assert (nothing["n"], nothing["valid"], nothing["invalid"]) == (0, 0, 0)
    assert nothing["passed"] is None and nothing["cost_per_pass"] is None
    broken = summarize([B2, A2])
    assert (broken["n"], broken["valid"], broken["invalid"]) == (2, 0, 2)
    for key in (
        "wrote",
        "correct",
        "safe",
        "passed",
        "loc_median",
        "tokens_mean",
        "cost_per_run",
        "cost_per_pass",
        "time_s_mean",
        "turns_mean",
    ):
        assert broken[key] is None, key


def test_cost_per_pass_is_none_without_a_pass() -> None:
    figures = summarize([B1, M2])
    assert figures["passed"] == 0
    assert figures["cost_per_run"] == 0.3125
    assert figures["cost_per_pass"] is None


def test_a_record_without_valid_counts_as_valid() -> None:
    bare: Record = {"task": "t", "arm": "a", "model": "m", "run": 0, "correct": True, "safe": True}
    assert summarize([bare])["valid"] == 1 and summarize([bare])["passed"] == 1


def test_aggregate_rows_per_task_model_arm() -> None:
    rows = aggregate(RECORDS)
    assert [(r["task"], r["model"], r["arm"]) for r in rows] == [
        ("t1", "m1", "a_arm"),
        ("t1", "m1", "baseline"),
        ("t1", "m2", "baseline"),
        ("t2", "m1", "baseline"),
    ]
    base = row(rows, "t1", "m1", "baseline")
    assert base == {"task": "t1", "model": "m1", "arm": "baseline", **summarize([B0, B1, B2, B3])}
    arm = row(rows, "t1", "m1", "a_arm")
    assert (arm["n"], arm["valid"], arm["invalid"]) == (3, 2, 1)
    assert (arm["correct"], arm["safe"], arm["passed"]) == (0.5, 1.0, 0.5)
    assert arm["loc_median"] == 10  # median of 8 and 12
    assert arm["cost_per_run"] == 0.375  # the failed attempts' $4 and $2 are not in it
    assert arm["cost_per_pass"] == 0.75
    assert arm["tokens_mean"] == 200
    assert arm["tests_written"] == 0.5
    assert arm["timed_out"] == 0
    other = row(rows, "t1", "m2", "baseline")
    assert (other["n"], other["passed"], other["wrote"], other["loc_median"]) == (1, 0.0, 0.0, None)


def test_model_totals_over_all_tasks() -> None:
    rows = model_totals(RECORDS)
    assert [(r["task"], r["model"], r["arm"]) for r in rows] == [
        ("ALL", "m1", "a_arm"),
        ("ALL", "m1", "baseline"),
        ("ALL", "m2", "baseline"),
    ]
    base = row(rows, "ALL", "m1", "baseline")
    assert (base["n"], base["valid"], base["invalid"]) == (5, 4, 1)
    assert base["passed"] == 2 / 3  # B0 and T2 pass, of the scored B0, B1 and T2 (B3: unscored)
    assert base["loc_median"] == 10  # median of 10, 30, 5
    assert base["cost_per_run"] == 0.625  # (0.25 + 0.5 + 0.75 + 1.0) / 4
    assert base["cost_per_pass"] == 0.875  # the scored cells' 1.75 dollars over two passes
    assert base["time_s_mean"] == 4.0  # (3 + 5 + 7 + 1) / 4


def test_arm_order_puts_baseline_first() -> None:
    assert arm_order(["zed", "baseline", "a_arm", "zed"]) == ["baseline", "a_arm", "zed"]
    assert arm_order(["b", "a"]) == ["a", "b"]


def blocks(table: str) -> dict[str, list[list[str]]]:
    """Title -> rows split into cells, header row included."""
    out: dict[str, list[list[str]]] = {}
    for chunk in table.split("\n\n"):
        title, *lines = chunk.splitlines()
        out[title] = [line.split() for line in lines]
    return out


def test_render_table_blocks_and_numbers() -> None:
    table = render_table(RECORDS)
    found = blocks(table)
    assert list(found) == ["t1 (m1)", "t1 (m2)", "t2 (m1)", "ALL TASKS (m1)", "ALL TASKS (m2)"]
    for rows in found.values():
        assert rows[0] == list(COLUMNS)
    assert found["t1 (m1)"][1:] == [
        ["baseline", "4", "3", "67%", "100%", "50%", "20", "33%", "210", "$0.5000", "$0.7500", "25", "5.0"],
        ["a_arm", "3", "2", "100%", "50%", "100%", "10", "50%", "200", "$0.3750", "$0.7500", "10", "3.0"],
    ]
    assert found["t1 (m2)"][1:] == [
        ["baseline", "1", "1", "0%", "0%", "0%", "-", "0%", "-", "$0.1250", "-", "-", "-"]
    ]
    assert found["ALL TASKS (m1)"][1][:2] == ["baseline", "5"]
    assert found["ALL TASKS (m1)"][2][:2] == ["a_arm", "3"]
    assert found["ALL TASKS (m1)"][1][10] == "$0.8750"
    assert not table.endswith("\n")


def test_render_table_columns_line_up() -> None:
    for chunk in render_table(RECORDS).split("\n\n"):
        header, *body = chunk.splitlines()[1:]
        assert all(len(line) == len(header) for line in body), chunk
        assert header.startswith("  arm")


def test_render_table_of_nothing_is_empty() -> None:
    assert render_table([]) == ""


def test_the_outside_column_shows_only_where_an_agent_reached_outside() -> None:
    inside: Record = {"task": "t", "arm": "baseline", "model": "m", "run": 0, "valid": True, "correct": True}
    out: Record = {**inside, "arm": "mine", "outside_writes": ["/tmp/x"], "safe": False}
    assert "outside" not in render_table([inside]).split("\n")[1]
    table = render_table([inside, {**inside, "run": 1}, out, {**out, "run": 1, "outside_writes": []}])
    header, *rows = [line for line in table.splitlines() if line.startswith("  ")][:3]
    assert header.split()[-1] == "outside"
    assert rows[0].split()[-1] == "0%" and rows[1].split()[-1] == "50%"


def test_an_open_task_stays_out_of_pass_correct_and_safe_but_its_words_count() -> None:
    def cell(task: str, scored: bool, ok: bool, words: int) -> Record:
        return loaded(
            {
                "task": task,
                "arm": "baseline",
                "model": "m",
                "run": 0,
                "valid": True,
                "scored": scored,
                "correct": ok,
                "safe": ok,
                "reply_words": words,
                "total_loc": 3,
            }
        )

    row = summarize([cell("t", True, False, 10), cell("open", False, True, 30)])
    assert (row["passed"], row["correct"], row["safe"]) == (0.0, 0.0, 0.0)  # not 50 %
    assert row["reply_words_median"] == 20 and row["valid"] == 2
    only_open = summarize([cell("open", False, True, 30)])
    assert only_open["passed"] is None and only_open["reply_words_median"] == 30


def test_the_terminal_prints_the_matrix_while_it_fits_a_screen_and_names_it_after() -> None:
    def grid(n: int) -> list[Record]:
        return [rec(f"t{i:03}", "baseline", "m1", 0, correct=True, safe=True) for i in range(n)]

    fits = terminal_matrix(grid(MATRIX_ROWS_IN_TERMINAL))
    assert fits.startswith("passed/scored per task (") and "t000" in fits
    assert len(fits.splitlines()) == 2 + MATRIX_ROWS_IN_TERMINAL
    many = grid(MATRIX_ROWS_IN_TERMINAL + 1)
    line = terminal_matrix(many)
    assert line == (
        f"passed/scored per task: {MATRIX_ROWS_IN_TERMINAL + 1} rows, more than fit a screen "
        "(-v prints them here; the HTML report has them)"
    )
    assert terminal_matrix(many, full=True) == render_matrix(many)
    assert terminal_matrix([]) == ""
