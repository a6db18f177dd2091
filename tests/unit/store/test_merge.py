"""`ponybench merge` on run dirs laid out on disk: one grid only, every record and cell folder
taken, duplicates reported with the last valid attempt counting, missing cells listed, spend
summed. The end-to-end merge of real shards is in tests/integration/test_shards.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_ponybench import cli
from pytest_ponybench.core import records
from pytest_ponybench.core.runs import Runs
from pytest_ponybench.core.shards import GridSpec, Shard
from pytest_ponybench.store import history
from tests.unit._support.shards import SPEC, make_part, shard_record


def shards_of(root: Path, spec: GridSpec = SPEC, n: int = 3) -> list[Path]:
    return [
        make_part(root, f"s{i}", spec, Shard(i, n), started=f"2026-11-30T10:0{i}:00+00:00")
        for i in range(1, n + 1)
    ]


def test_merge_takes_every_record_and_cell_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parts = shards_of(tmp_path)
    out = tmp_path / "merged"
    assert cli.main(["merge", "-o", str(out), *map(str, parts)]) == cli.OK
    said = capsys.readouterr().out
    assert "12 of 12 cells recorded" in said
    recs = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(r["cell_id"] for r in recs) == sorted(SPEC.cell_ids())
    assert sorted(p.name for p in (out / "cells").iterdir()) == sorted(SPEC.cell_ids())
    info = json.loads((out / "run.json").read_text())
    assert info["grid_hash"] == SPEC.hash and info["missing"] == [] and "shard" not in info
    assert [p["shard"]["index"] for p in info["merged"]["parts"]] == [1, 2, 3]
    assert {p["path"] for p in info["merged"]["parts"]} == {str(p) for p in parts}
    assert info["options"]["budget_usd"] == pytest.approx(4.5)  # three shares of 1.5
    assert json.loads((out / "spend.json").read_text())["spent_usd"] == pytest.approx(1.5)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["missing"] == [] and summary["rows"]
    # The merged dir is a run dir the other commands accept.
    assert cli.main(["summary", str(out)]) == cli.OK
    assert cli.main(["compare", str(out), "--fail-on", "correct:-5pp"]) == cli.OK


def test_a_shard_that_never_arrived_is_listed_cell_by_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parts = shards_of(tmp_path)
    out = tmp_path / "merged"
    code = cli.main(["merge", "-o", str(out), str(parts[0]), str(parts[2])])
    assert code == cli.GATE_FAILED
    said = capsys.readouterr().out
    lost = SPEC.shard_cell_ids(Shard(2, 3))
    listed = [line.split("missing: ")[1] for line in said.splitlines() if "missing: " in line]
    assert listed == lost
    assert f"--resume {out}" in said
    assert json.loads((out / "run.json").read_text())["missing"] == lost
    assert json.loads((out / "summary.json").read_text())["missing"] == lost
    again = tmp_path / "merged2"
    assert cli.main(["merge", "--allow-missing", "-o", str(again), str(parts[0]), str(parts[2])]) == cli.OK


def test_shards_of_another_grid_are_refused_naming_the_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = GridSpec(SPEC.tasks, {**SPEC.arms, "terse": "t2"}, SPEC.models, SPEC.runs)
    a = make_part(tmp_path, "a", SPEC, Shard(1, 2))
    b = make_part(tmp_path, "b", other, Shard(2, 2))
    out = tmp_path / "merged"
    assert cli.main(["merge", "-o", str(out), str(a), str(b)]) == cli.USAGE
    err = capsys.readouterr().err
    assert "different grids" in err
    assert f"arm 'terse' has hash t1 in {a} but t2 in {b}" in err
    assert not out.exists()


def test_different_claude_versions_need_allow_mixed_and_are_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = make_part(tmp_path, "a", SPEC, Shard(1, 2))
    b = make_part(tmp_path, "b", SPEC, Shard(2, 2), claude_version="2.1.400 (Claude Code)")
    assert cli.main(["merge", "-o", str(tmp_path / "m1"), str(a), str(b)]) == cli.USAGE
    err = capsys.readouterr().err
    assert "2.1.332" in err and "2.1.400" in err and "--allow-mixed" in err
    assert cli.main(["merge", "--allow-mixed", "-o", str(tmp_path / "m2"), str(a), str(b)]) == cli.OK
    merged = json.loads((tmp_path / "m2" / "run.json").read_text())["merged"]
    assert merged["mixed_claude_versions"] is True
    assert set(merged["claude_versions"].values()) == {"2.1.332 (Claude Code)", "2.1.400 (Claude Code)"}


def test_different_resources_need_allow_mixed_and_each_part_s_is_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = {"cpus": 2, "memory_gib": 7.8, "workers": "2"}
    a = make_part(tmp_path, "a", SPEC, Shard(1, 2), envelope=small)
    b = make_part(tmp_path, "b", SPEC, Shard(2, 2), envelope={**small, "cpus": 16})
    assert cli.main(["merge", "-o", str(tmp_path / "m1"), str(a), str(b)]) == cli.USAGE
    err = capsys.readouterr().err
    assert "different resources" in err and "2 CPUs, 7.8 GiB" in err and "16 CPUs, 7.8 GiB" in err
    assert cli.main(["merge", "--allow-mixed", "-o", str(tmp_path / "m2"), str(a), str(b)]) == cli.OK
    assert "mixed resources, recorded in run.json" in capsys.readouterr().err
    written = json.loads((tmp_path / "m2" / "run.json").read_text())
    assert "envelope" not in written
    assert set(written["merged"]["envelopes"].values()) == {
        "2 CPUs, 7.8 GiB, workers 2",
        "16 CPUs, 7.8 GiB, workers 2",
    }
    # Parts with one envelope keep it in the merged run.json.
    c = make_part(tmp_path, "c", SPEC, Shard(2, 2), envelope=small)
    assert cli.main(["merge", "-o", str(tmp_path / "m3"), str(a), str(c)]) == cli.OK
    assert json.loads((tmp_path / "m3" / "run.json").read_text())["envelope"] == small


def test_a_merge_joins_the_history_index_of_its_folder_when_there_is_one(tmp_path: Path) -> None:
    parts = shards_of(tmp_path, SPEC, n=2)
    out = tmp_path / "runs"
    out.mkdir()
    assert cli.main(["merge", "-o", str(out / "m1"), *map(str, parts)]) == cli.OK
    assert not (out / history.INDEX).exists()  # no index there: none is made
    (out / history.INDEX).write_text("")
    assert cli.main(["merge", "-o", str(out / "m2"), *map(str, parts)]) == cli.OK
    (entry,) = history.read(out).entries
    assert entry.run == "m2" and entry.grid_hash == SPEC.hash and entry.point.cells


def test_a_duplicate_cell_is_reported_and_its_last_valid_attempt_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = GridSpec({"alpha": "ha"}, {"baseline": "b0"}, ("offline-reference",), Runs(1))
    cid = "alpha-baseline-offline-reference-r0"
    early = make_part(tmp_path, "early", spec, None, started="2026-11-30T10:00:00+00:00")
    late = make_part(tmp_path, "late", spec, None, started="2026-11-30T10:05:00+00:00")
    broken = make_part(tmp_path, "broken", spec, None, started="2026-11-30T10:09:00+00:00")
    # The latest part's attempt is invalid: the valid one before it counts.
    (late / "results.jsonl").write_text(
        json.dumps(shard_record(cid, spec, correct=False, total_loc=99)) + "\n"
    )
    (broken / "results.jsonl").write_text(
        json.dumps(shard_record(cid, spec, valid=False, error="API 529")) + "\n"
    )
    out = tmp_path / "merged"
    # Given in any order: the parts are ordered by when they started.
    assert cli.main(["merge", "-o", str(out), str(broken), str(early), str(late)]) == cli.OK
    err = capsys.readouterr().err
    assert f"cell {cid} recorded in 3 parts" in err
    recs = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(recs) == 3
    counted = records.latest(recs)
    assert len(counted) == 1 and counted[0]["total_loc"] == 99
    # cells/<id> is the workspace of the attempt that counts; the others are kept beside it.
    assert (out / "cells" / cid / "workspace" / "main.py").read_text() == f"# late {cid}\n"
    kept = sorted(p.name for p in (out / "cells").iterdir())
    assert kept == [cid, f"{cid}~1", f"{cid}~2"]
    assert json.loads((out / "run.json").read_text())["merged"]["duplicates"][cid] == [
        str(early),
        str(late),
        str(broken),
    ]


def test_earlier_attempt_folders_of_a_part_are_kept(tmp_path: Path) -> None:
    spec = GridSpec({"alpha": "ha"}, {"baseline": "b0"}, ("offline-reference",), Runs(1))
    cid = "alpha-baseline-offline-reference-r0"
    part = make_part(tmp_path, "p", spec, None)
    (part / "cells" / f"{cid}~1").mkdir()
    (part / "cells" / f"{cid}~1" / "claude.jsonl").write_text("first\n")
    (part / "cells" / cid / "escape").symlink_to("/etc/passwd")
    out = tmp_path / "merged"
    assert cli.main(["merge", "-o", str(out), str(part)]) == cli.OK
    assert (out / "cells" / f"{cid}~1" / "claude.jsonl").read_text() == "first\n"
    link = out / "cells" / cid / "escape"
    assert link.is_symlink() and str(link.readlink()) == "/etc/passwd"  # kept as a link, not followed


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("nothing", "no such run dir"),
        ("no_run_json", "no run.json"),
        ("out_not_empty", "exists and is not empty"),
        ("twice", "given twice"),
    ],
)
def test_bad_input_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setup: str, message: str
) -> None:
    part = make_part(tmp_path, "a", SPEC, None)
    out = tmp_path / "out"
    args = [str(part)]
    if setup == "nothing":
        args = [str(tmp_path / "nope")]
    elif setup == "no_run_json":
        (part / "run.json").unlink()
    elif setup == "out_not_empty":
        out.mkdir()
        (out / "x").write_text("")
    elif setup == "twice":
        args = [str(part), str(part)]
    assert cli.main(["merge", "-o", str(out), *args]) == cli.USAGE
    assert message in capsys.readouterr().err


def test_merge_needs_an_out_dir(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["merge", "runs/a"])
    assert info.value.code == 2
    assert "-o/--out" in capsys.readouterr().err
