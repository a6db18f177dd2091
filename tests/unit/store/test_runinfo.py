"""Tests for `store/runinfo.py`: run.json's one reader and one writer, the recorded options, and
every form earlier versions wrote read through its migration (one file per form under
tests/unit/data/runjson/, as that version wrote it; the forms themselves are test_runforms's)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from pytest_ponybench.core.arms import BASELINE
from pytest_ponybench.core.runs import Runs
from pytest_ponybench.plan import options as cfg
from pytest_ponybench.plan import previous
from pytest_ponybench.roles import planner as plan_mod
from pytest_ponybench.roles.settings import requested_mode
from pytest_ponybench.store import runforms
from pytest_ponybench.store.results import RunDir
from pytest_ponybench.store.runinfo import Options, PartInfo, Problem, RunInfo, RunInfoError, read
from tests.support import one_task_project
from tests.unit._support.runjson import FORMS, form

TERSE = "1d0eda0849020ac1"  # the content hash of a prompt arm "Be brief.", then and now


def test_the_options_are_the_option_table_s_recorded_rows() -> None:
    assert set(Options.keys()) == {o.record for o in cfg.RECORDED}


@pytest.mark.parametrize("n", sorted(n for n in runforms.FORMS if n < runforms.CURRENT))
def test_every_old_form_is_read_through_its_migration(n: int, tmp_path: Path) -> None:
    doc = form(n)
    info = RunInfo.from_json(doc)
    assert (info.form, info.problems) == (n, ())
    # Arms from before parts get the one part their kind and content were.
    assert [a.parts for a in info.arms] == [(), (PartInfo("prompt", "Be brief.", TERSE if n >= 5 else None),)]
    assert info.mode == "run" and info.options.models == tuple(doc["options"]["models"])
    assert info.options.judge_model is None  # not recorded then: never a guess
    assert info.started == doc["started"] and info.exitstatus == doc["exitstatus"]
    spec = info.grid_spec()
    if "grid_hash" in doc:
        assert spec.hash == doc["grid_hash"]
    assert set(doc["grid"]) <= set(spec.cell_ids())
    # A resume rebuilds the same arms, their hashes checked.
    arms = previous.arms_of(info, "--resume", RunDir(tmp_path))
    assert [(a.name, a.content_hash()) for a in arms] == [
        ("baseline", BASELINE.content_hash()),
        ("terse", TERSE),
    ]
    # Written back in the current form: nothing the file held is lost, and it reads the same.
    written = json.loads(json.dumps(info.to_json()))
    assert set(doc) <= set(written) and set(doc["options"]) <= set(written["options"])
    same = [k for k in doc if k not in ("arms", "options")]
    assert {k: written[k] for k in same} == {k: doc[k] for k in same}
    assert {k: written["options"][k] for k in doc["options"]} == doc["options"]
    again = RunInfo.from_json(written)
    assert again == replace(info, form=runforms.CURRENT)


def test_old_forms_keep_what_they_recorded() -> None:
    assert form(1)["options"].keys() == {"models", "runs", "cell_timeout", "max_turns", "tasks", "arms"}
    first = RunInfo.from_json(form(1))
    assert (first.options.retries, first.options.primary, first.fixtures) == (None, None, {})
    shard = RunInfo.from_json(form(3)).shard
    assert shard is not None and (shard.index, shard.count, shard.cells) == (1, 2, tuple(form(3)["grid"]))
    design = RunInfo.from_json(form(4)).design()
    assert design is not None and design[0].max_runs == 4 and [lk.runs for lk in design[1]] == [1]
    assert RunInfo.from_json(form(5)).options.runs == Runs(2, {"merge_intervals": 3})


@pytest.mark.parametrize("n", sorted(n for n in runforms.FORMS if n < runforms.CURRENT))
def test_an_old_run_dir_resumes_its_own_grid(pytester: pytest.Pytester, n: int) -> None:
    root = one_task_project(pytester.path, claude_line="printf '2.1.0 (Claude Code)\\n'")
    old = root / "runs" / "old"
    old.mkdir(parents=True)
    shutil.copy(FORMS / f"form{n}.json", old / "run.json")
    result = pytester.runpytest(
        "benchmarks", "--claude", "./claude", "--resume", str(old), "--collect-only", "-q"
    )
    out = result.stdout.str()
    assert result.ret == pytest.ExitCode.OK, out + result.stderr.str()
    collected = sorted(line.split("[", 1)[1].rstrip("]") for line in out.splitlines() if "::" in line)
    assert collected == sorted(form(n)["grid"])
    assert json.loads((old / "run.json").read_text()) == form(n)  # collecting writes nothing


def _plan_info(pytester: pytest.Pytester, *args: str) -> RunInfo:
    one_task_project(pytester.path, claude_line="printf '2.1.0 (Claude Code)\\n'")
    config = pytester.parseconfig("benchmarks", "--claude", "./claude", *args)
    requested = requested_mode(config)
    assert requested is not None
    return plan_mod.resolve(config, *requested).provenance("2.1.0 (Claude Code)")


def test_the_current_form_keeps_today_s_keys_in_today_s_order_and_reads_back(
    pytester: pytest.Pytester,
) -> None:
    info = _plan_info(pytester, "--runs", "2", "--arm", "terse=prompt:Be brief.", "--shard", "1/2")
    written = json.loads(json.dumps(info.to_json()))
    assert list(written) == [
        *("harness", "project", "claude_version", "python", "pytest", "xdist", "platform", "envelope"),
        *("argv", "cwd", "options", "arms", "tasks", "fixtures", "grid", "mode", "grid_hash", "shard"),
    ]
    assert list(written["options"]) == [
        *("models", "agents", "runs", "tasks", "arms", "until_decided", "max_tasks", "budget_usd"),
        "max_budget_usd",
        *("cell_timeout", "max_turns", "retries", "judge_model", "judge_runs", "primary", "family"),
        "direction",
    ]
    assert list(written["arms"][1]) == ["name", "kind", "hash", "plugin_dir", "prompt", "settings", "parts"]
    assert written["arms"][1]["parts"] == [{"kind": "prompt", "hash": TERSE, "value": "Be brief."}]
    again = RunInfo.from_json(written)
    assert again == info and again.form == runforms.CURRENT
    assert again.grid_spec().hash == written["grid_hash"] and again.shard is not None


def test_a_malformed_key_is_a_problem_and_is_written_back_as_it_was() -> None:
    doc = {**form(5), "options": {**form(5)["options"], "runs": "x"}, "shard": "1/2", "later": {"a": 1}}
    info = RunInfo.from_json(doc)
    assert info.problems == (
        Problem("options.runs", "options.runs must be a number, not 'x'"),
        Problem("shard", "key 'shard' is not a shard: '1/2'"),
    )
    assert info.options.runs is None and info.shard is None
    with pytest.raises(RunInfoError, match=r"^run.json options.runs must be a number, not 'x'$"):
        info.check()
    written = info.to_json()
    assert (written["options"]["runs"], written["shard"], written["later"]) == ("x", "1/2", {"a": 1})
    assert list(written)[-2:] == ["later", "shard"]  # unknown and malformed keys last


def test_a_malformed_design_is_named_when_the_verdict_asks_for_it() -> None:
    info = RunInfo.from_json({**form(4), "sequential": "yes"})
    with pytest.raises(ValueError, match="run.json key 'sequential' is not a sequential design"):
        info.design()
    assert RunInfo.from_json(form(2)).design() is None


def test_a_file_that_is_not_a_run_json_is_one_error(tmp_path: Path) -> None:
    (tmp_path / "run.json").write_text("[1, 2]")
    with pytest.raises(RunInfoError, match="not a JSON object with the run's provenance"):
        read(tmp_path)
    (tmp_path / "run.json").write_text('{"options": {"mod')
    with pytest.raises(RunInfoError, match="^run.json is unreadable: "):
        read(tmp_path)
    assert RunDir(tmp_path / "none").info() == RunInfo()


def test_two_runs_are_told_comparable_or_not() -> None:
    a = RunInfo.from_json(form(5)).options
    b = replace(a, judge_model="offline-judge", models=tuple(reversed(a.models or ())))
    assert a.differences(a) == [] and b.differences(replace(b, models=a.models)) == []
    assert a.differences(b, ("runs/a", "runs/b")) == [
        'judge_model not recorded in runs/a but "offline-judge" in runs/b'
    ]
    c = replace(a, runs=Runs(2))
    assert a.differences(c) == ['task_runs {"merge_intervals": 3} in first but {} in second']


def test_the_run_dir_writes_run_json_through_run_info_only(tmp_path: Path) -> None:
    run_dir = RunDir(tmp_path)
    info = RunInfo.from_json(form(5))
    bare = replace(info, started=None, exitstatus=None, missing=None, finished=None)
    assert run_dir.start(bare) is True
    assert run_dir.start(replace(bare, mode="resume")) is False  # the first writer wins
    assert run_dir.info().mode == "run" and run_dir.info().started is not None
    design = RunInfo.from_json(form(4)).sequential
    run_dir.update(sequential=design)
    run_dir.finish(1, ["c1"])
    written = json.loads((tmp_path / "run.json").read_text())
    assert list(written)[-5:] == ["started", "sequential", "exitstatus", "missing", "finished"]
    assert (written["exitstatus"], written["missing"]) == (1, ["c1"])
    assert run_dir.info().sequential == design
