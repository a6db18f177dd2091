"""Where the report finds a record's cell folder: retried attempts and a rescore dir."""

from __future__ import annotations

from pathlib import Path

from pytest_ponybench.htmlreport.source import load
from tests.unit._support.records import report_record, write_report_run


def test_cell_folders_of_retried_attempts_and_of_a_rescore_dir(tmp_path: Path) -> None:
    run = write_report_run(
        tmp_path / "runs" / "s1",
        [report_record("t", "baseline", attempt=1), report_record("t", "baseline", attempt=2)],
    )
    cells = run / "cells"
    (cells / "t-baseline-m-r0~1").mkdir(parents=True)
    (cells / "t-baseline-m-r0").mkdir()
    source = load(run)
    assert source.cell_folder(source.records[0]) == cells / "t-baseline-m-r0~1"
    assert source.cell_folder(source.records[1]) == cells / "t-baseline-m-r0"
    assert source.cell_folder({"cell_id": "../escape"}) is None
    # A rescore dir keeps no folders: its records point at the scored run's.
    moved = tmp_path / "elsewhere"
    rescore = write_report_run(
        run / "rescore-s2", [report_record("t", "baseline", attempt=2, rescored_from=str(moved))]
    )
    assert load(rescore).cell_folder(load(rescore).records[0]) == cells / "t-baseline-m-r0"
