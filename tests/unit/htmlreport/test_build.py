"""The report built from hand-made run dirs: the escaping of the page's inline data, a whole report
of a small run dir read back from disk, the run section part by part, the answer first, failure
reasons, the command. Its pieces are test_transcript's, test_source's and test_brings' (the
workspace diff is scoring/test_diff's); the page in a browser is
tests/integration/test_report_browser.py's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.analysis import report
from pytest_ponybench.cli import main
from pytest_ponybench.core.records import Record, loaded
from pytest_ponybench.htmlreport import NotARunDir, write_report
from pytest_ponybench.htmlreport import build as page
from tests.unit._support.records import report_record, write_report_run

HOSTILE = "</script><script>alert(1)</script><!--"


def test_inline_data_cannot_end_its_script_block() -> None:
    text = page._script_json({"reason": HOSTILE, "x": "a & b > c"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"reason": HOSTILE, "x": "a & b > c"}


def test_report_of_a_small_run_holds_the_summary_figures_and_no_raw_markup(tmp_path: Path) -> None:
    recs = [
        report_record("t1", "baseline", total_loc=10, cost_usd=0.5),
        report_record(
            "t1", "told", correct=False, reason=f"check failed {HOSTILE}", total_loc=12, cost_usd=0.75
        ),
        report_record("t2", "baseline", total_loc=8, cost_usd=0.25),
        report_record("t2", "told", total_loc=9, cost_usd=0.5, extra={"note": HOSTILE}),
        report_record("t2", "told", run=1, valid=False, error=f"API error {HOSTILE}"),
    ]
    arms = [
        {"name": "baseline", "kind": "baseline", "hash": "b0"},
        {"name": "told", "kind": "prompt", "hash": "t0", "prompt": HOSTILE},
    ]
    run = write_report_run(tmp_path / "run", recs, {"arms": arms, "options": {"models": ["m"], "runs": 2}})
    out = write_report(run)
    assert out == run / "report.html"
    html = out.read_text()
    assert HOSTILE not in html and "<script>alert" not in html
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in html  # the arm's prompt, escaped
    found = re.search(r'<script id="pb-data" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None
    data = json.loads(found[1])
    rows = data["table"]["rows"]
    cols = data["table"]["columns"]
    outcomes = sorted(r[cols.index("outcome")] for r in rows)
    assert outcomes == ["failed", "invalid", "passed", "passed", "passed"]
    # The all-tasks table holds the terminal's figures.
    for row in report.model_totals(recs):
        assert "<td>" + "</td><td>".join(report._cells(row)) + "</td>" in html
    # Every cell's details are in a part file beside the page, as JSON.
    parts = sorted((run / "report").glob("p*.js"))
    assert parts and (run / "report" / ".ponybench-report").exists()
    details: dict[str, Any] = {}
    for part in parts:
        body = part.read_text()
        assert body.startswith("ponybenchCells(") and body.endswith(");\n")
        details.update(json.loads(body[len("ponybenchCells(") : -3]))
    assert len(details) == 5
    invalid = next(d for d in details.values() if d["outcome"] == "invalid")
    assert invalid["reason"] == f"API error {HOSTILE}"
    assert invalid["note"].startswith("the cell's folder was not kept")
    # Built twice: the cells folder is replaced, not mixed.
    write_report(run)
    assert sorted((run / "report").glob("p*.js")) == parts


def test_report_refuses_a_folder_that_is_not_a_run_dir_and_one_it_would_overwrite(tmp_path: Path) -> None:
    with pytest.raises(NotARunDir, match="no results.jsonl"):
        write_report(tmp_path)
    run = write_report_run(tmp_path / "run", [report_record("t", "baseline")])
    (tmp_path / "mine").mkdir()
    with pytest.raises(FileExistsError, match="is not a report's cell folder"):
        write_report(run, tmp_path / "mine.html")
    with pytest.raises(FileExistsError, match="is a folder; name the page's file"):
        write_report(run, tmp_path / "mine")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "run"]  # nothing left behind


def test_the_report_command_prints_the_page_and_names_a_bad_run_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_report_run(
        tmp_path / "run",
        [report_record("t", "baseline"), report_record("t", "told", correct=False, reason="r")],
    )
    assert main(["report", str(run)]) == 0
    assert capsys.readouterr().out.strip() == str((run / "report.html").absolute())
    assert main(["report", str(run), "-o", str(tmp_path / "out" / "page.html")]) == 0
    assert (tmp_path / "out" / "page.html").is_file() and (tmp_path / "out" / "page" / "p0.js").is_file()
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert "missing: no such run dir" in capsys.readouterr().err
    assert main(["compare", str(run), "--html", str(tmp_path / "within.html")]) == 0
    assert "report: " in capsys.readouterr().err and (tmp_path / "within.html").is_file()


def test_the_run_section_says_what_each_arm_adds_part_by_part(tmp_path: Path) -> None:
    arms: list[dict[str, Any]] = [
        {"name": "baseline", "kind": "baseline", "hash": "b0", "parts": []},
        {  # a composed arm as run.json describes it (Arm.describe)
            "name": "house",
            "kind": "plugin+claude-md+skills+output-style",
            "hash": "h0",
            "git_sha": "0123456789abcdef",
            "git_dirty": False,
            "parts": [
                {"kind": "plugin", "hash": "p", "value": "/p/plugins/mine", "names": ["mine"]},
                {"kind": "claude-md", "hash": "c", "value": "/p/arms/CLAUDE.md@user"},
                {"kind": "skills", "hash": "s", "value": "/p/arms/skills", "names": ["tidy", "name"]},
                {"kind": "output-style", "hash": "o", "value": "/p/arms/terse.md", "names": ["Terse"]},
            ],
        },
        {"name": "old", "kind": "settings", "hash": "o0", "settings": '{"model": "x"}'},  # before parts
    ]
    recs = [report_record("t1", str(a["name"])) for a in arms]
    run = write_report_run(tmp_path / "run", recs, {"arms": arms, "options": {"models": ["m"], "runs": 1}})
    html = write_report(run).read_text()
    assert (
        "plugin /p/plugins/mine (git 0123456789ab, clean); CLAUDE.md /p/arms/CLAUDE.md @user; "
        "skills /p/arms/skills (tidy, name); output style /p/arms/terse.md (Terse)"
    ) in html
    assert '<td class="what">settings: {&#34;model&#34;: &#34;x&#34;}</td>' in html
    assert '<td class="what">nothing added</td>' in html


def test_the_run_section_says_which_arm_checks_were_kept_from_an_earlier_run(tmp_path: Path) -> None:
    arms: list[dict[str, Any]] = [{"name": "baseline", "kind": "baseline", "hash": "b0", "parts": []}]
    checked = [
        {"arm": "mine", "ok": True, "problems": [], "wall_s": 0.0, "reused": "2026-12-07 14:00 UTC"},
        {"arm": "yours", "ok": True, "problems": [], "wall_s": 1.1},
    ]
    preflight = {"ran": True, "scope": "activation", "arms": checked, "problems": []}
    recs = [report_record("t1", "baseline")]
    run = write_report_run(tmp_path / "run", recs, {"arms": arms, "preflight": preflight})
    html = write_report(run).read_text()
    assert "each arm&#39;s activation check: ok; arm mine as checked 2026-12-07 14:00 UTC" in html
    assert "arm yours as checked" not in html


# --- the answer first ---------------------------------------------------------------------------


def _cell(task: str, arm: str, model: str, run: int, ok: bool, **fields: Any) -> Record:
    return loaded(
        {
            "cell_id": f"{task}-{arm}-{model}-r{run}",
            "task": task,
            "arm": arm,
            "model": model,
            "run": run,
            "attempt": 1,
            "valid": True,
            "scored": True,
            "correct": ok,
            "safe": True,
            "reason": "" if ok else "test_correct.py::test_x: AssertionError: wrong",
            "cost_usd": 0.1 if arm == "baseline" else 0.12,
            "duration_ms": 1000,
            **fields,
        }
    )


def _two_model_run(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A live model where the arm passes every task and the baseline none (decided better), and
    a scripted offline one whose cells all fail on purpose (expected failures)."""
    recs = [
        _cell(f"t{i}", arm, model, run, ok)
        for i in range(12)
        for run in range(2)
        for model, arm, ok in (
            ("sonnet", "baseline", False),
            ("sonnet", "careful", True),
            ("offline-flawed", "baseline", False),
            ("offline-flawed", "careful", False),
        )
    ]
    expected = {
        str(r["cell_id"]): "offline-flawed writes the task's bad reference, which fails on correct"
        for r in recs
        if r["model"] == "offline-flawed"
    }
    arms = [
        {"name": "baseline", "kind": "baseline", "hash": "b0", "parts": []},
        {
            "name": "careful",
            "kind": "prompt",
            "hash": "c0",
            "parts": [{"kind": "prompt", "value": "Be careful."}],
        },
    ]
    run = write_report_run(
        tmp_path / "run", recs, {"arms": arms, "options": {"models": ["offline-flawed", "sonnet"]}}
    )
    (run / "summary.json").write_text(json.dumps({"expected_failures": expected}))
    return run, expected


def test_the_page_leads_with_the_answer_and_the_real_model_before_the_scripted_one(tmp_path: Path) -> None:
    run, expected = _two_model_run(tmp_path)
    html = write_report(run).read_text()
    # The answer, then the run, then each model: the real model first though its name sorts last.
    assert (
        html.index('id="answer"') < html.index('id="run-1"') < html.index('id="model-1" data-model="sonnet"')
    )
    cards = re.findall(r'<div class="answer-card ([\w -]+)" data-arm="(\w+)" data-model="([\w-]+)"', html)
    assert cards == [("better", "careful", "sonnet"), ("undecided offline", "careful", "offline-flawed")]
    first = html[html.index('class="answer-card better"') : html.index('class="answer-card undecided')]
    assert '<span class="word better">better</span> on pass: +100.0 pp, 95% interval [' in first
    assert "12 paired tasks" in first and "Why: its 95% interval lies wholly above no change" in first
    assert "offline, scripted" not in first
    sections = re.findall(r'<section class="model" id="model-\d" data-model="([\w-]+)">', html)
    assert sections == ["sonnet", "offline-flawed"]
    assert '<h2>offline-flawed <span class="tag">offline, scripted</span></h2>' in html
    # The offline model's cells failed as their agent intends: expected failures, not failed.
    found = re.search(r'<script id="pb-data" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None
    table = json.loads(found[1])["table"]
    by_id = {
        row[table["columns"].index("id")]: row[table["columns"].index("outcome")] for row in table["rows"]
    }
    assert {by_id[c] for c in expected} == {"xfailed"}
    assert {o for c, o in by_id.items() if c not in expected} == {"passed", "failed"}
    assert '<span class="failed">24 failed</span>, <span class="xfailed"' in html
    assert ">48 expected failures</span>" in html


def test_an_expected_failure_that_passed_is_a_failure_that_says_why(tmp_path: Path) -> None:
    recs = [report_record("t", "baseline"), report_record("t", "told", correct=False, reason="r")]
    run = write_report_run(tmp_path / "run", recs)
    (run / "summary.json").write_text(json.dumps({"expected_failures": {"t-baseline-m-r0": "it must fail"}}))
    write_report(run)
    details = json.loads((run / "report" / "p0.js").read_text()[len("ponybenchCells(") : -3])
    shown = {d["id"]: (d["outcome"], d["reason"]) for d in details.values()}
    assert shown["t-baseline-m-r0"] == ("failed", "passed, but it must fail: the instrument is broken")
    assert shown["t-told-m-r0"] == ("failed", "r")


def test_a_failure_reason_is_the_checks_name_and_the_first_line_of_its_message(tmp_path: Path) -> None:
    message = "AssertionError: safe_next('//evil.example/') returned '//evil.example/'"
    nodeid = "test_safe.py::test_next_cannot_leave_the_site[//evil.example/]"
    checks = [{"nodeid": nodeid, "outcome": "failed", "message": message}]
    long = "AssertionError: " + "the answer was wrong in a long way " * 20
    recs = [
        report_record("t1", "baseline", safe=False, reason=f"]: {message}", checks=checks),  # as written once
        report_record("t2", "baseline", correct=False, reason=f"test_correct.py::test_long: {long}"),
    ]
    run = write_report_run(tmp_path / "run", recs)
    html = write_report(run).read_text()
    found = re.search(r'<script id="pb-data" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None
    table = json.loads(found[1])["table"]
    reasons = [row[table["columns"].index("reason")] for row in table["rows"]]
    assert reasons[0] == f"{nodeid}: {message}"
    assert reasons[1].startswith("test_correct.py::test_long: AssertionError: the answer was wrong")
    full = f"test_correct.py::test_long: {long}"
    cut = reasons[1].removesuffix("…")
    assert len(reasons[1]) <= 300 and full.startswith(cut) and full[len(cut)] == " "  # between words


def test_the_pass_line_of_an_arm_graded_by_graders_alone_says_no_cell_has_a_pass() -> None:
    """Nine valid cells of tasks graded by graders alone: not "no valid cell"."""
    totals: dict[tuple[str, str], dict[str, object]] = {("m", "a"): {"valid": 9, "scored": 0, "passed": None}}
    assert page._pass_text(totals, "m", "a") == "a no cell has a pass (graded by graders alone)"
    assert page._pass_text(totals, "m", "b") == "b no valid cell"
    totals[("m", "b")] = {"valid": 0, "scored": 0, "passed": None}
    assert page._pass_text(totals, "m", "b") == "b no valid cell"
