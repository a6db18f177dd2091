"""The history index (store/history.py) and `ponybench history` on synthetic run dirs: one line
per run, appended whole, the last line of a run counting, a run dir copied in joining it, a
rebuild; the command's series, moves, flaky tasks, its gate's decisions with compare's exit
codes, its JSON and CSV; the report's page of the history."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from pytest_ponybench import cli
from pytest_ponybench.store import history
from pytest_ponybench.store.results import RunDir
from tests.history_runs import ENVELOPE, make_run

TASKS = [f"t{i}" for i in range(8)]
BASE = ["101", "011", "110", "111", "000", "100", "111", "010"]  # a coin-like baseline


def outcomes(mine: str | list[str]) -> dict[tuple[str, str], str]:
    arm = mine if isinstance(mine, list) else [mine] * len(TASKS)
    return {
        **{(t, "baseline"): BASE[i] for i, t in enumerate(TASKS)},
        **{(t, "mine"): arm[i] for i, t in enumerate(TASKS)},
    }


def series_of(folder: Path, plan: list[tuple[str, str | list[str]]]) -> None:
    """Runs r1, r2, ... of `mine` at the given hashes and outcomes, a day apart."""
    for n, (arm_hash, mine) in enumerate(plan, start=1):
        make_run(
            folder,
            f"r{n}",
            f"2026-01-{n:02d}T00:00:00",
            outcomes(mine),
            arm_hashes={"mine": arm_hash},
        )


def ponybench(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_index_has_one_line_per_run_and_reads_back(tmp_path: Path) -> None:
    series_of(tmp_path, [("m1", "101"), ("m2", "111")])
    index, problems = history.update(tmp_path)
    assert problems == [] and [e.run for e in index.entries] == ["r1", "r2"]
    lines = (tmp_path / history.INDEX).read_text().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert first["form"] == history.FORM and first["run"] == "r1" and first["envelope"] == ENVELOPE
    assert first["arms"] == {"baseline": "a-baseline", "mine": "m1"} and first["tasks"]["t0"] == "h-t0"
    assert {
        "task": "t0",
        "arm": "mine",
        "model": "offline-coin",
        "outcomes": "101",
        "score": None,
    }.items() <= {**first["cells"][1]}.items()
    again = history.Entry.from_json(first)
    assert again.to_json() == first
    # Nothing new: the index is not written again.
    history.update(tmp_path)
    assert len((tmp_path / history.INDEX).read_text().splitlines()) == 2


def test_a_run_that_finishes_again_counts_by_its_last_line_and_a_torn_line_is_named(tmp_path: Path) -> None:
    run = make_run(tmp_path, "r1", "2026-01-01T00:00:00", outcomes("000"))
    RunDir(run).finish(0, [])  # a session's end writes the run's line
    (run / "results.jsonl").write_text(
        (run / "results.jsonl").read_text().replace('"correct": false', '"correct": true')
    )
    RunDir(run).finish(0, [])  # resumed and finished again: a second line
    with open(tmp_path / history.INDEX, "a") as fh:
        fh.write('{"run": "r9", "torn')
    index = history.read(tmp_path)
    assert len(index.entries) == 1 and index.entries[0].point.cells[-1].outcomes == "111"
    assert index.problems == (
        f"{tmp_path / history.INDEX}: 1 line(s) are not JSON objects (torn or garbled), left out",
    )
    make_run(tmp_path, "r2", "2026-01-02T00:00:00", outcomes("111"))
    history.update(tmp_path)  # the next line starts on a line of its own
    assert [e.run for e in history.read(tmp_path).entries] == ["r1", "r2"]


def test_a_rescore_and_an_unfinished_run_do_not_join(tmp_path: Path) -> None:
    make_run(tmp_path, "r1", "2026-01-01T00:00:00", outcomes("1"), finished=False)
    index, _ = history.update(tmp_path)
    assert index.entries == ()
    rebuilt, _ = history.rebuild(tmp_path)  # a rebuild takes every run dir there is
    assert [e.run for e in rebuilt.entries] == ["r1"]


def test_a_run_dir_copied_in_joins_the_index_when_history_reads_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    series_of(tmp_path / "runs", [("m1", "111")])
    history.update(tmp_path / "runs")
    make_run(tmp_path / "artefact", "r2", "2026-01-02T00:00:00", outcomes("111"))
    (tmp_path / "artefact" / "r2").rename(tmp_path / "runs" / "r2")
    code, out, _ = ponybench(capsys, "history", str(tmp_path / "runs"))
    assert code == 0 and "2 run(s)" in out.splitlines()[0]
    assert [e.run for e in history.read(tmp_path / "runs").entries] == ["r1", "r2"]


def test_history_shows_the_trend_the_regression_and_the_flaky_tasks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    series_of(tmp_path, [("m1", "101"), ("m2", "111"), ("m2", "111"), ("m3", "000")])
    code, out, _ = ponybench(capsys, "history", str(tmp_path))
    assert code == 0
    assert "== mine on offline-coin, series 1: 4 run(s)  ▆██▁" in out
    assert "   r2                           24/24 100%  [86%, 100%]  score -" in out
    assert "   at r4: arm mine changed (hash m2 → m3)" in out
    assert (
        "   regressed t0: 3/3 → 0/3 (-100 pp, r3 → r4; paired by run: 3 lost, 0 gained, sign test p 0.25)"
        in out
    )
    assert (
        "   fixed t0: 2/3 → 3/3 (+33 pp, r1 → r2; paired by run: 0 lost, 1 gained, sign test p 1.00)" in out
    )
    assert "   flaky: t0: passed 8 of 12 valid cells over 4 run(s) at arm hash a-baseline (flaky 33%)" in out
    assert "r4 against r3:" in out
    # Every task moved alike (3/3 -> 0/3): Newcombe's interval over the 24 cells, not the point.
    assert "offline-coin, arm mine: worse (pass -100.0 pp [-100.0, -80.5] pp, 8 paired tasks" in out


def test_the_gate_fails_on_a_regression_and_passes_without_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    series_of(tmp_path / "down", [("m1", "111"), ("m2", "111"), ("m3", "000")])
    code, out, _ = ponybench(capsys, "history", str(tmp_path / "down"), "--fail-on", "pass:-10pp")
    assert code == cli.GATE_FAILED
    assert "FAIL pass:-10pp: r3 vs r2 (offline-coin, arm mine): pass -100.0 pp" in out
    assert out.rstrip().endswith("gate failed: pass:-10pp")

    wobble = ["110", "111", "111", "011", "111", "111", "111", "111"]  # two cells of 24 lost
    series_of(tmp_path / "steady", [("m1", "111"), ("m2", "111"), ("m2", wobble)])
    code, out, _ = ponybench(capsys, "history", str(tmp_path / "steady"), "--fail-on", "pass:-10pp")
    assert code == cli.OK and "gate passed: pass:-10pp" in out


def test_the_gate_pools_a_window_and_fails_with_nothing_comparable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    series_of(tmp_path, [("m1", "111"), ("m1", "111"), ("m2", "000")])
    code, out, _ = ponybench(
        capsys, "history", str(tmp_path), "--fail-on", "pass:-10pp", "--window", "2", "--markdown"
    )
    assert code == cli.GATE_FAILED
    assert "r3 vs last 2 runs (offline-coin, arm mine)" in out and "**Gate failed:** `pass:-10pp`" in out

    make_run(tmp_path, "r4", "2026-01-04T00:00:00", outcomes("000"), envelope={**ENVELOPE, "cpus": 8})
    code, out, _ = ponybench(capsys, "history", str(tmp_path), "--fail-on", "pass:-10pp")
    assert code == cli.GATE_FAILED
    assert (
        "gate failed: nothing to compare with: r3, r2, r1 not comparable: "
        "envelope 2 CPUs, 23.5 GiB, workers 2 → 8 CPUs" in out
    )


def test_bad_inputs_are_one_error_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["history", str(tmp_path)]) == cli.USAGE
    assert "no finished run dir in it" in capsys.readouterr().err
    assert cli.main(["history", str(tmp_path), "--window", "0"]) == cli.USAGE
    assert "--window must be at least 1, not 0" in capsys.readouterr().err
    assert cli.main(["history", str(tmp_path), "--fail-on", "pass:5"]) == cli.USAGE
    assert "--fail-on: bad gate rule 'pass:5'" in capsys.readouterr().err
    run = make_run(tmp_path, "r1", "2026-01-01T00:00:00", outcomes("1"))
    assert cli.main(["history", str(run), str(tmp_path / "nope")]) == cli.USAGE
    assert "nope: not a run dir" in capsys.readouterr().err
    assert cli.main(["history", str(run), "--rebuild"]) == cli.USAGE
    assert "--rebuild writes a FOLDER's index" in capsys.readouterr().err


def test_run_dirs_named_one_by_one_write_no_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    series_of(tmp_path, [("m1", "111"), ("m2", "000")])
    code, out, _ = ponybench(capsys, "history", str(tmp_path / "r1"), str(tmp_path / "r2"))
    assert code == 0 and f"{tmp_path / 'r2'} against {tmp_path / 'r1'}:" in out
    assert not (tmp_path / history.INDEX).exists()


def test_json_and_csv_export_every_run_series_and_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    series_of(tmp_path, [("m1", "101"), ("m2", "000")])
    code, out, _ = ponybench(
        capsys,
        "history",
        str(tmp_path),
        "--json",
        "--csv",
        str(tmp_path / "h.csv"),
        "--fail-on",
        "pass:-10pp",
    )
    doc = json.loads(out)  # the gate's words went to stderr: stdout is one document
    assert code == cli.GATE_FAILED
    assert set(doc) == {"where", "runs", "series", "since_last", "problems"}
    mine = next(s for s in doc["series"] if s["arm"] == "mine")
    assert set(mine) == {
        "arm",
        "model",
        "number",
        "runs",
        "why",
        "versions",
        "rates",
        "moves",
        "flaky",
        "slowest",
        "costliest",
    }
    assert [r["passed"] for r in mine["rates"]] == [16, 0] and mine["moves"][0]["kind"] == "regressed"
    assert doc["since_last"]["base"] == ["r1"] and doc["since_last"]["verdicts"][1]["word"] == "worse"
    rows = list(csv.DictReader(io.StringIO((tmp_path / "h.csv").read_text())))
    assert len(rows) == 2 * 2 * len(TASKS)
    assert rows[1] == {
        **rows[1],
        "run": "r1",
        "series": "1",
        "arm": "mine",
        "task": "t0",
        "outcomes": "101",
        "passed": "2",
        "scored": "3",
    }


def test_svg_and_the_history_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    series_of(tmp_path / "runs", [("m1", "101"), ("m2", "111"), ("m3", "000")])
    code, _, _ = ponybench(capsys, "history", str(tmp_path / "runs"), "--svg", str(tmp_path / "h.svg"))
    svg = (tmp_path / "h.svg").read_text()
    assert code == 0 and svg.startswith("<svg") and svg.count("<polyline") == 2
    code, out, _ = ponybench(capsys, "report", "--history", str(tmp_path / "runs"))
    page = Path(out.strip()).read_text()
    assert code == 0 and out.strip() == str(tmp_path / "runs" / "history.html")
    assert "mine on offline-coin, series 1" in page and "<strong>regressed</strong> t0" in page
    assert (
        cli.main(["report", "--history", str(tmp_path / "runs"), str(tmp_path / "runs" / "r1")]) == cli.USAGE
    )


def test_the_gate_takes_arm_errors_as_compare_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    crash = {"kind": "hook", "name": "SessionStart", "message": "exited 1: Error: Cannot find module 'x'"}
    for folder, broken in (("broken", True), ("healthy", False)):
        series_of(tmp_path / folder, [("m1", "111"), ("m1", "111")])
        results = tmp_path / folder / "r2" / "results.jsonl"
        records = [json.loads(line) for line in results.read_text().splitlines()]
        for r in records:
            r["arm_errors"] = [crash] if broken and r["arm"] == "mine" else []
        results.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, _ = ponybench(
        capsys, "history", str(tmp_path / "broken"), "--fail-on", "pass:-10pp,arm_errors"
    )
    assert code == cli.GATE_FAILED
    assert "FAIL arm_errors: arm mine in r2: hook SessionStart failed in 24 of 24 cells (exited 1)" in out
    code, out, _ = ponybench(capsys, "history", str(tmp_path / "healthy"), "--fail-on", "arm_errors")
    assert code == cli.OK and "gate passed: arm_errors" in out
