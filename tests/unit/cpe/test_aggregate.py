"""`claude plugin eval` results read as records, and `ponybench compare` on them.

The aggregate-result.json files under data/cpe/results/ were written by the real CLI (2.1.332)
against the offline model server (scripts/record_cpe_results.py): the careful plugin with and
without, a second version of it without its skill, a case whose model answers HTTP 500, and a
run with `--ablation none`. Expected values are computed here from the files themselves, not
copied from them; malformed variants are derived from a real file.
"""

from __future__ import annotations

import copy
import json
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench import cli
from pytest_ponybench.core.records import Record
from pytest_ponybench.cpe import AggregateError, read_aggregate, task_id
from pytest_ponybench.cpe.aggregate import records_of
from tests.support import REPO
from tests.unit._support import DATA as UNIT_DATA

DATA = UNIT_DATA / "cpe" / "results"
WITH_WITHOUT = DATA / "with-without.json"
PLUGIN_V2 = DATA / "plugin-v2.json"
ERRORS = DATA / "errors.json"
SINGLE_ARM = DATA / "single-arm.json"


def raw(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- reading real results


def test_cases_are_tasks_arms_are_with_and_without_runs_are_runs() -> None:
    data = raw(WITH_WITHOUT)
    agg = read_aggregate(WITH_WITHOUT)
    plugin = data["suite"]["plugins"][0]["name"]
    assert agg.arms == (plugin, "baseline")
    expected = {
        (task_id(c["name"]), arm, c["model"], i)
        for c in data["cases"]
        for side, arm in (("with", plugin), ("without", "baseline"))
        for i in range(len(c["arms"][side]))
    }
    got = {(r["task"], r["arm"], r["model"], r["run"]) for r in agg.records}
    assert got == expected and len(agg.records) == len(expected)
    assert "Judge_explain_the_skill" in {r["task"] for r in agg.records}  # "Judge: explain the skill"
    for rec in agg.records:
        assert rec["cell_id"] == f"{rec['task']}-{rec['arm']}-{rec['model']}-r{rec['run']}"
        assert rec["claude_version"] == data["claudeVersion"]


def test_each_run_keeps_its_score_pass_cost_time_and_graders() -> None:
    data = raw(WITH_WITHOUT)
    by_key = {(r["task"], r["arm"], r["run"]): r for r in read_aggregate(WITH_WITHOUT).records}
    judged = 0
    for case in data["cases"]:
        for side, arm in (("with", "careful"), ("without", "baseline")):
            for i, run in enumerate(case["arms"][side]):
                rec = by_key[(task_id(case["name"]), arm, i)]
                assert rec["valid"] is True and rec["error"] is None
                assert rec["score"] == run["score"] and rec["correct"] is run["passed"]
                assert rec["safe"] is True  # CPE has no safety axis
                # The agent's dollars apart from the judge's, which CPE folds into the run's cost.
                assert (rec["cost_usd"] or 0.0) + rec["judge_cost_usd"] == pytest.approx(run["costUsd"])
                assert rec["cost_usd"] is not None
                judged += run["judgeCostUsd"] > 0
                assert rec["duration_ms"] == 1000 * run["durationSeconds"]
                assert rec["turns"] == run["turns"] and rec["started"] == run["startedAt"]
                assert [g["name"] for g in rec["graders"]] == [g["name"] for g in run["graders"]]
                for g, src in zip(rec["graders"], run["graders"], strict=True):
                    assert g["passed"] is src["passed"] and g["weight"] == src["weight"]
                    assert g["arm"] == ("arms-only" if src["withOnly"] else "all")
                failed = [g["name"] for g in run["graders"] if g["scored"] and not g["passed"]]
                assert all(name in rec["reason"] for name in failed)
                assert (rec["reason"] == "") is run["passed"]
    assert judged > 0  # the llm grader's judge was paid for, and kept apart


def test_a_with_only_grader_is_arms_only_and_judge_votes_are_kept() -> None:
    recs = read_aggregate(WITH_WITHOUT).records
    greet = next(r for r in recs if r["task"] == "greet" and r["arm"] == "careful")
    skill = next(g for g in greet["graders"] if g["name"] == "review_skill")
    assert skill["arm"] == "arms-only" and skill["type"] == "tool_used"
    judge = next(r for r in recs if r["task"] == "Judge_explain_the_skill")
    votes = next(g for g in judge["graders"] if g["type"] == "llm")["judge_votes"]
    assert len(votes) == 3 and all(isinstance(v, bool) for v in votes)


def test_a_session_that_never_got_an_answer_is_invalid_not_a_failure() -> None:
    data = raw(ERRORS)
    runs = [r for c in data["cases"] for side in ("with", "without") for r in c["arms"][side]]
    assert all(r["turns"] == 0 and r["error"].startswith("timed out") for r in runs)  # what CPE wrote
    recs = read_aggregate(ERRORS).records
    assert len(recs) == len(runs)
    for rec in recs:
        assert rec["valid"] is False and "no model answer: timed out" in str(rec["error"])
        assert "correct" not in rec and "score" not in rec  # nothing measured, nothing scored


def test_single_arm_results_say_why_there_is_no_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    agg = read_aggregate(SINGLE_ARM)
    assert agg.arms == ("careful",)
    assert any("--ablation none" in n for n in agg.notes)
    code, _, err = run_cli(capsys, "compare", str(SINGLE_ARM))
    assert code == 2
    assert "--ablation none" in err and "no arm named 'baseline'" in err


def test_another_plugin_version_is_another_arm_hash() -> None:
    one = {r["arm_hash"] for r in read_aggregate(WITH_WITHOUT).records if r["arm"] == "careful"}
    two = {r["arm_hash"] for r in read_aggregate(PLUGIN_V2).records if r["arm"] == "careful"}
    assert len(one) == len(two) == 1 and one != two
    assert (
        raw(WITH_WITHOUT)["suite"]["plugins"][0]["version"]
        != raw(PLUGIN_V2)["suite"]["plugins"][0]["version"]
    )


def test_a_results_folder_reads_like_its_file(tmp_path: Path) -> None:
    folder = tmp_path / "20261201-120000"
    folder.mkdir()
    (folder / "aggregate-result.json").write_bytes(WITH_WITHOUT.read_bytes())
    (folder / "report.html").write_text("<html></html>")
    assert read_aggregate(folder).records == read_aggregate(WITH_WITHOUT).records


# ---------------------------------------------------------------- compare on them


def _pass_delta(data: dict[str, Any]) -> float:
    """The verdict's pass estimate, by hand: per case, with's pass rate minus without's; mean."""
    deltas = [
        statistics.mean(r["passed"] for r in c["arms"]["with"])
        - statistics.mean(r["passed"] for r in c["arms"]["without"])
        for c in data["cases"]
    ]
    return 100 * float(statistics.mean(deltas))


def test_compare_one_aggregate_puts_intervals_and_p_on_the_plugins_effect(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_cli(capsys, "compare", str(WITH_WITHOUT))
    assert code == 0, err
    cases = len(raw(WITH_WITHOUT)["cases"])
    assert f"careful vs baseline (offline-coin): {cases} paired tasks" in out
    pass_line = next(line for line in out.splitlines() if line.strip().startswith("pass "))
    assert f"{_pass_delta(raw(WITH_WITHOUT)):+.1f} pp" in pass_line
    assert "[" in pass_line and "]" in pass_line  # an interval
    assert "p (adj.)" in out and "more tasks" in out  # p values and the power hint
    assert "claude plugin eval results read as 18 cells" in err
    assert "no code size and no tokens" in err


def test_compare_two_aggregates_pairs_arm_by_arm_and_gates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "compare", str(PLUGIN_V2), str(WITH_WITHOUT))
    assert code == 0, err
    assert "(offline-coin, arm careful): 3 paired tasks" in out
    assert "(offline-coin, arm baseline): 3 paired tasks" in out
    # Version 1 calls its skill and costs more per run, every run alike (the offline model is
    # deterministic): a zero-spread interval wholly above +5 %, which the gate fails.
    v1 = statistics.mean(r["costUsd"] for c in raw(WITH_WITHOUT)["cases"] for r in c["arms"]["with"])
    v2 = statistics.mean(r["costUsd"] for c in raw(PLUGIN_V2)["cases"] for r in c["arms"]["with"])
    assert v1 > 1.05 * v2
    code, out, _ = run_cli(capsys, "compare", str(PLUGIN_V2), str(WITH_WITHOUT), "--fail-on", "cost:+5%")
    assert code == 1
    assert "FAIL cost:+5%" in out and "arm careful" in out.split("FAIL cost:+5%")[1].splitlines()[0]
    code, out, _ = run_cli(capsys, "compare", str(PLUGIN_V2), str(WITH_WITHOUT), "--fail-on", "cost:+50%")
    assert code == 0 and "gate passed" in out


def _run_dir(path: Path, cases: list[str], arms: dict[str, float], runs: int = 3) -> Path:
    """A ponybench run dir of the imported tasks: arms map to a pass rate per task."""
    lines = []
    for t, name in enumerate(cases):
        for run in range(runs):
            for arm, rate in arms.items():
                ok = (run + t) % runs < rate * runs
                lines.append(
                    {
                        "cell_id": f"{task_id(name)}-{arm}-offline-coin-r{run}",
                        "task": task_id(name),
                        "arm": arm,
                        "model": "offline-coin",
                        "run": run,
                        "valid": True,
                        "correct": ok,
                        "safe": True,
                        "cost_usd": 0.04,
                        "duration_ms": 3000 + 100 * t,
                    }
                )
    path.mkdir(parents=True)
    (path / "results.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_compare_an_aggregate_with_a_run_dir_of_the_imported_tasks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = [c["name"] for c in raw(WITH_WITHOUT)["cases"]]
    run = _run_dir(tmp_path / "runs" / "x", names, {"careful": 1.0, "baseline": 0.0})
    code, out, err = run_cli(capsys, "compare", str(WITH_WITHOUT), str(run))
    assert code == 0, err
    assert f"(offline-coin, arm careful): {len(names)} paired tasks" in out
    careful = out.split("arm careful")[1]
    cpe_pass = statistics.mean(
        statistics.mean(r["passed"] for r in c["arms"]["with"]) for c in raw(WITH_WITHOUT)["cases"]
    )
    pass_line = next(line for line in careful.splitlines() if line.strip().startswith("pass "))
    assert f"{100 * (1.0 - cpe_pass):+.1f} pp" in pass_line


def test_compare_on_an_aggregate_through_the_console_script(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_ponybench.cli", "compare", str(WITH_WITHOUT), "--markdown"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "careful" in done.stdout and "|" in done.stdout


# ---------------------------------------------------------------- malformed and truncated files


def _variant(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    data = copy.deepcopy(raw(WITH_WITHOUT))
    change(data)
    path = tmp_path / "aggregate-result.json"
    path.write_text(json.dumps(data))
    return path


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        here: Any = data
        parts = path.replace("[", ".").replace("]", "").split(".")
        for part in parts[:-1]:
            here = here[int(part)] if part.isdigit() else here[part]
        last = parts[-1]
        if value is DELETE:
            del here[int(last) if last.isdigit() else last]
        else:
            here[int(last) if last.isdigit() else last] = value

    return change


DELETE = object()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set("schemaVersion", 2), "key 'schemaVersion' is 2; this reader knows version 1"),
        (_set("schemaVersion", DELETE), "key 'schemaVersion' is missing"),
        (_set("cases", {"a": 1}), "key 'cases' must be a list"),
        (_set("suite", DELETE), "key 'suite' is missing"),
        (_set("suite.plugins[0].name", DELETE), "key 'suite.plugins[0].name' is missing"),
        (_set("cases[1].name", 7), "key 'cases[1].name' must be a string, not 7"),
        (_set("cases[1].arms", DELETE), "key 'cases[1].arms' is missing"),
        (_set("cases[1].arms.with[0].score", "high"), "key 'cases[1].arms.with[0].score' must be a number"),
        (
            _set("cases[1].arms.with[0].score", 1.5),
            "key 'cases[1].arms.with[0].score' must be between 0 and 1",
        ),
        (
            _set("cases[2].arms.without[1].costUsd", -1),
            "key 'cases[2].arms.without[1].costUsd' must be a finite",
        ),
        (_set("cases[0].arms.with[0].error", DELETE), "key 'cases[0].arms.with[0].error' is missing"),
        (
            _set("cases[0].arms.with[2].passed", "yes"),
            "key 'cases[0].arms.with[2].passed' must be true or false",
        ),
        (
            _set("cases[0].arms.with[0].graders[1].passed", None),
            "key 'cases[0].arms.with[0].graders[1].passed' must be true or false, not null",
        ),
        (_set("cases[0].arms.without", "none"), "key 'cases[0].arms.without' must be a list"),
        (_set("cases[0].arms.with[1]", []), "key 'cases[0].arms.with[1]' must be an object"),
    ],
)
def test_a_malformed_file_is_an_error_naming_the_file_and_key(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: Callable[[dict[str, Any]], None],
    message: str,
) -> None:
    path = _variant(tmp_path, change)
    with pytest.raises(AggregateError) as exc:
        read_aggregate(path)
    assert str(exc.value).startswith(f"{path}: ") and message in str(exc.value)
    code, out, err = run_cli(capsys, "compare", str(path))
    assert code == 2 and not out
    assert f"ponybench: error: {path}: " in err and message in err


def test_a_truncated_file_says_it_ends_early(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = WITH_WITHOUT.read_text()
    for cut in (len(text) // 2, len(text) - 3, 10):
        path = tmp_path / f"cut-{cut}.json"
        path.write_text(text[:cut])
        with pytest.raises(AggregateError, match=r"not valid JSON at line \d+ .*truncated"):
            read_aggregate(path)
        code, _, err = run_cli(capsys, "compare", str(path))
        assert code == 2 and str(path) in err and "truncated" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"[1, 2]", "key '(root)' must be an object"),
        (b'{"runs": []}', "key 'schemaVersion' is missing: not a `claude plugin eval` aggregate"),
        (b"\xff\xfe{}", "not UTF-8"),
        (
            b'{"schemaVersion": 1, "suite": {"plugins": []}, "cases": [{"name": "a", "arms": {"with": '
            b'[{"score": NaN, "turns": 1, "costUsd": 0, "error": null, "graders": []}]}}]}',
            "key 'cases[0].arms.with[0].score' must be a finite number",
        ),
    ],
)
def test_what_is_not_an_aggregate_is_refused(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(content)
    with pytest.raises(AggregateError, match="x.json: ") as exc:
        read_aggregate(path)
    assert message in str(exc.value)


def test_a_missing_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "compare", str(tmp_path / "nope.json"))
    assert code == 2 and "nope.json: cannot read it" in err


# ---------------------------------------------------------------- which runs measured the plugin


def _one_run(**run: Any) -> list[Record]:
    base = {"score": 0.0, "passed": False, "turns": 3, "costUsd": 0.1, "judgeCostUsd": 0.0, "error": None}
    graders = [{"name": "g", "passed": False, "weight": 1, "explanation": "no", "withOnly": False}]
    data = {
        "schemaVersion": 1,
        "suite": {"plugins": [{"name": "my-plugin", "path": "/p"}]},
        "cases": [{"name": "c", "arms": {"with": [{**base, "graders": graders, **run}]}}],
    }
    return records_of(data, Path("agg.json")).records


def test_an_api_error_run_without_grades_is_invalid() -> None:
    (rec,) = _one_run(error="API Error: 529 overloaded", graders=[], turns=1)
    assert rec["valid"] is False and rec["error"] == "not graded: API Error: 529 overloaded"
    assert rec["arm"] == "my_plugin" and rec["model"] == "default"  # an arm name; CPE's default model


def test_a_timeout_after_some_turns_is_a_valid_graded_run() -> None:
    (rec,) = _one_run(error="timed out after 300s", turns=4)
    assert rec["valid"] is True and rec["timed_out"] is True and rec["correct"] is False
    assert "error: timed out after 300s" in rec["reason"]


def test_an_interrupted_run_is_invalid() -> None:
    (rec,) = _one_run(error="interrupted", turns=2)
    assert rec["valid"] is False and rec["error"] == "interrupted"


def test_a_run_a_mock_aborted_is_a_valid_failure() -> None:
    aborted = {"server": "notes", "tool": "delete", "reason": "deleted everything"}
    (rec,) = _one_run(error="aborted", graders=[], aborted=aborted, turns=5)
    assert rec["valid"] is True and rec["correct"] is False and rec["score"] == 0.0
    assert "aborted by the mock of notes/delete: deleted everything" in rec["reason"]


def test_two_cases_named_alike_stay_two_tasks() -> None:
    run: dict[str, Any] = {
        "score": 1,
        "passed": True,
        "turns": 1,
        "costUsd": 0.1,
        "error": None,
        "graders": [],
    }
    data = {
        "schemaVersion": 1,
        "suite": {"plugins": []},
        "cases": [
            {"name": "fix bug", "arms": {"with": [run]}},
            {"name": "fix  bug!", "arms": {"with": [run]}},
        ],
    }
    agg = records_of(data, Path("agg.json"))
    assert [r["task"] for r in agg.records] == ["fix_bug", "fix_bug_2"]
    assert any("both task" in n for n in agg.notes)
    assert agg.arms == ("plugin",)


def test_the_readme_example_is_real_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every line of docs/cpe.md's compare example (but its `...`) is this command's output."""
    folder = tmp_path / "evals" / "results" / "20261201-163919"
    folder.mkdir(parents=True)
    (folder / "aggregate-result.json").write_bytes(WITH_WITHOUT.read_bytes())
    command = "ponybench compare evals/results/20261201-163919/aggregate-result.json"
    readme = (REPO / "docs" / "cpe.md").read_text()
    block = readme[readme.index(f"$ {command}\n") + len(command) + 3 :].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *command.split()[1:])
    assert code == 0
    shown = [line for line in block.splitlines() if line.strip() and line.strip() != "..."]
    printed = (err + out).splitlines()
    for line in shown:
        assert line in printed, line


def test_the_html_report_says_it_reads_run_dirs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "report", str(WITH_WITHOUT))
    assert code == 2 and "the HTML report reads ponybench run dirs" in err
    code, out, err = run_cli(capsys, "compare", str(WITH_WITHOUT), "--html", str(tmp_path / "x.html"))
    assert code == 2 and "claude plugin eval writes its own report.html" in err
    assert "careful vs baseline" in out and not (tmp_path / "x.html").exists()
