"""Tests for `analysis/health.py`: each arm's health across its cells, one line per arm and problem
with its count; the gate `--fail-on arm_errors` and the summary through the real `ponybench`
command on a run dir written to disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_ponybench import cli
from pytest_ponybench.analysis import health
from pytest_ponybench.core.records import Record, loaded
from pytest_ponybench.htmlreport.details import arm_error_items
from tests.unit._support.records import arm_record

CRASH = {
    "kind": "hook",
    "name": "SessionStart",
    "message": "exited 1: Error: Cannot find module 'x'",
    "exit_code": 1,
}


def grid(errors_in: int, cells: int = 4) -> list[Record]:
    out = []
    for i in range(cells):
        out.append(arm_record("baseline", task=f"t{i}", arm_errors=[]))
        out.append(arm_record("crashy", task=f"t{i}", arm_errors=[CRASH] if i < errors_in else []))
    return out


def test_one_line_per_arm_and_problem_with_its_count() -> None:
    records = grid(errors_in=3)
    records.append(
        arm_record(
            "crashy",
            task="t0",
            arm_errors=[
                CRASH,
                {"kind": "mcp", "name": "notes", "message": "did not connect (status failed)"},
            ],
            attempt=2,
        )
    )
    assert health.health_lines(records) == [
        "arm crashy: hook SessionStart failed in 3 of 4 cells (exited 1): Error: Cannot find module 'x'",
        "arm crashy: MCP server notes did not start in 1 of 4 cells: did not connect (status failed)",
    ]
    assert health.health_lines(grid(errors_in=0)) == []
    # Records written before arm_errors, or malformed ones, say nothing (and never crash).
    odd = [arm_record("crashy"), arm_record("crashy", task="t1", arm_errors=[{"kind": 1}, "x", None])]
    assert health.health_lines(odd) == []
    assert arm_error_items(records[-1]) == [
        "hook SessionStart exited 1: Error: Cannot find module 'x'",
        "MCP server notes did not connect (status failed)",
    ]


def write_run(root: Path, records: list[Record]) -> Path:
    run = root / "run"
    run.mkdir(parents=True)
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return run


def test_the_gate_fails_on_any_arm_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path, grid(errors_in=1))
    assert cli.main(["compare", str(run), "--fail-on", "arm_errors"]) == cli.GATE_FAILED
    out = capsys.readouterr().out
    assert "FAIL arm_errors: arm crashy: hook SessionStart failed in 1 of 4 cells (exited 1)" in out
    assert "gate failed: arm_errors" in out
    healthy = write_run(tmp_path / "ok", grid(errors_in=0))
    assert cli.main(["compare", str(healthy), "--fail-on", "arm_errors"]) == cli.OK
    assert "gate passed: arm_errors" in capsys.readouterr().out


def test_a_run_that_never_recorded_its_arms_health_measured_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = [{k: v for k, v in r.items() if k != "arm_errors"} for r in grid(errors_in=0)]
    run = write_run(tmp_path, [loaded(r) for r in old])
    assert cli.main(["compare", str(run), "--fail-on", "arm_errors"]) == cli.GATE_FAILED
    assert "nothing measured for arm_errors (no record says its arm's health)" in capsys.readouterr().out


def test_arm_errors_takes_no_margin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path, grid(errors_in=1))
    assert cli.main(["compare", str(run), "--fail-on", "arm_errors:10%"]) == cli.USAGE
    assert "arm_errors takes no margin" in capsys.readouterr().err


def test_the_summary_says_what_failed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path, grid(errors_in=4))
    assert cli.main(["summary", str(run)]) == cli.OK
    assert "arm crashy: hook SessionStart failed in 4 of 4 cells (exited 1): Error: Cannot find module" in (
        capsys.readouterr().out
    )
