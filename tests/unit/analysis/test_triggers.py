"""Trigger accuracy: fired where a task says the arm's skill should, and where it says it should
not (a false trigger), with intervals; and the gate on both, through the real `ponybench`
command on a run dir written to disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_ponybench import cli
from pytest_ponybench.analysis import triggers
from pytest_ponybench.core.records import Record, loaded

SKILL = ["careful:careful-review"]


def cell(task: str, arm: str, expect: bool | None, fired: bool, run: int = 0, valid: bool = True) -> Record:
    rec = {
        "task": task,
        "arm": arm,
        "model": "sonnet",
        "run": run,
        "cell_id": f"{task}-{arm}-sonnet-r{run}",
        "valid": valid,
        "correct": True,
        "safe": True,
        "total_loc": 5,
        "cost_usd": 0.01,
        "duration_ms": 1000,
        "skills_available": SKILL if arm != "baseline" else [],
        "skills_used": SKILL if fired else [],
    }
    if expect is not None:
        rec["expect_fire"] = expect
    return loaded(rec)


def grid(eager: bool) -> list[Record]:
    """Four tasks where the skill should fire and four where it should not; an eager arm fires
    on all eight, a precise one only where expected (and misses one)."""
    out = []
    for i in range(8):
        should = i < 4
        out.append(cell(f"t{i}", "baseline", None, False))
        fired = True if eager else (should and i != 0)
        out.append(cell(f"t{i}", "careful", should, fired))
    return out


def test_fired_where_expected_and_where_not() -> None:
    (eager,) = triggers.per_arm(grid(eager=True))
    assert (eager.arm, eager.expected, eager.fired_expected, eager.unexpected, eager.fired_unexpected) == (
        "careful",
        4,
        4,
        4,
        4,
    )
    (precise,) = triggers.per_arm(grid(eager=False))
    assert (precise.fired_expected, precise.fired_unexpected) == (3, 0)
    line = triggers.describe(precise)
    assert line.startswith("trigger accuracy of careful (sonnet): fired where expected 3/4 (75%, Wilson")
    assert "fired where not expected 0/4 (0%, Wilson 0-" in line


def test_invalid_cells_the_baseline_and_undeclared_tasks_stay_out() -> None:
    records = [
        cell("t0", "careful", True, False, valid=False),
        cell("t1", "careful", None, True),
        cell("t2", "baseline", None, False),
    ]
    assert triggers.per_arm(records) == []


def test_the_gate_fails_only_when_the_whole_interval_is_beyond_the_margin() -> None:
    eager = triggers.per_arm(grid(eager=True))
    # 4/4 false triggers: Wilson 51-100%, beyond 10% with confidence.
    (fail,) = triggers.gate_fails(eager, "false_fire", 10)
    assert fail.startswith("false_fire:10%: careful (sonnet) fired where not expected in 4/4 cells")
    assert triggers.gate_fails(eager, "false_fire", 60) == []  # 51% is not wholly above 60%
    precise = triggers.per_arm(grid(eager=False))
    assert triggers.gate_fails(precise, "false_fire", 0) == []
    assert triggers.gate_fails(precise, "missed_fire", 10) == []  # 1/4 missed: interval reaches 5%


def write_run(root: Path, records: list[Record]) -> Path:
    run = root / "run"
    run.mkdir()
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return run


def test_compare_gates_on_false_triggers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path, grid(eager=True))
    code = cli.main(["compare", str(run), "--fail-on", "false_fire:10%"])
    out = capsys.readouterr().out
    assert code == cli.GATE_FAILED
    assert "FAIL false_fire:10%: careful (sonnet) fired where not expected in 4/4 cells" in out
    assert "gate failed: false_fire:10%" in out
    assert cli.main(["compare", str(run), "--fail-on", "missed_fire:10%"]) == cli.OK


def test_a_trigger_rule_without_declarations_measures_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [
        cell(f"t{i}", arm, None, arm != "baseline") for i in range(4) for arm in ("baseline", "careful")
    ]
    run = write_run(tmp_path, records)
    assert cli.main(["compare", str(run), "--fail-on", "false_fire:10%"]) == cli.GATE_FAILED
    assert "nothing measured for no cell declares expect_fire" in capsys.readouterr().out


@pytest.mark.parametrize("rule", ["false_fire:10pp", "false_fire:120%", "missed_fire:x%", "false_fire:-1%"])
def test_a_bad_trigger_rule_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rule: str
) -> None:
    run = write_run(tmp_path, grid(eager=True))
    assert cli.main(["compare", str(run), "--fail-on", rule]) == cli.USAGE
    assert "takes a share of cells, 0-100%" in capsys.readouterr().err


def test_the_summary_says_trigger_accuracy_and_a_score_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = grid(eager=True)
    for rec in records:
        rec["score"] = 0.5 if rec.get("arm") == "careful" else 0.25
    run = write_run(tmp_path, records)
    assert cli.main(["summary", str(run)]) == cli.OK
    out = capsys.readouterr().out
    assert "trigger accuracy of careful (sonnet): fired where expected 4/4" in out
    header = next(line for line in out.splitlines() if line.strip().startswith("arm"))
    assert "score" in header.split()
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith("  careful")}
    assert "50%" in rows["careful"]
