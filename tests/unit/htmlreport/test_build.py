"""The report's pieces on hand-made inputs: the transcript from stream-json, the workspace diff
against the seeded base (real git), where a record's cell folder is (retries, rescore dirs), the
escaping of the page's inline data, and a whole report of a small run dir read back from disk.
The page in a browser is tested in tests/integration/test_report_browser.py.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.agents.dialect import CLAUDE
from pytest_ponybench.analysis import report
from pytest_ponybench.cli import main
from pytest_ponybench.core.records import Record, loaded
from pytest_ponybench.htmlreport import NotARunDir, transcript, write_report
from pytest_ponybench.htmlreport import build as page
from pytest_ponybench.htmlreport.source import load
from pytest_ponybench.scoring import diff
from pytest_ponybench.scoring.workspace import snapshot
from tests.support import transcript_of

HOSTILE = "</script><script>alert(1)</script><!--"


def _lines(*events: dict[str, Any]) -> list[str]:
    return [json.dumps(e) for e in events]


def _items(lines: list[str], prompt: str | None = None) -> list[transcript.Item]:
    return transcript.items_of(transcript_of(lines), CLAUDE, prompt)


def test_transcript_shows_prompt_calls_with_code_results_and_usage() -> None:
    items = _items(
        _lines(
            {
                "type": "system",
                "subtype": "init",
                "model": "m",
                "tools": ["Write"],
                "plugins": [{"name": "p"}],
            },
            {"type": "assistant", "message": {"content": [{"type": "text", "text": "Writing it."}]}},
            {
                "type": "assistant",
                "message": {
                    "content": [
                        {
                            "type": "tool_use",
                            "name": "Write",
                            "input": {"file_path": "/w/a.py", "content": "x = 1\n"},
                        },
                        {
                            "type": "tool_use",
                            "name": "Edit",
                            "input": {"file_path": "/w/b.py", "old_string": "y = 1", "new_string": "y = 2"},
                        },
                        {"type": "tool_use", "name": "Read", "input": {"file_path": "/w/c.py"}},
                    ]
                },
            },
            {
                "type": "user",
                "message": {"content": [{"type": "tool_result", "content": "boom", "is_error": True}]},
            },
            {
                "type": "result",
                "subtype": "success",
                "is_error": False,
                "num_turns": 2,
                "total_cost_usd": 0.5,
                "usage": {"input_tokens": 10, "output_tokens": 3},
                "result": "Done.",
            },
        )
        + ["not json {"],
        prompt="Do the thing.",
    )
    kinds = [(i["kind"], i["title"]) for i in items]
    assert kinds == [
        ("prompt", "prompt"),
        ("session", "session start"),
        ("text", "assistant"),
        ("tool", "Write"),
        ("tool", "Edit"),
        ("tool", "Read"),
        ("result", "tool result"),
        ("final", "result"),
        ("event", "not JSON"),
    ]
    write, edit, read, result, final = items[3], items[4], items[5], items[6], items[7]
    assert (write["path"], write["code"]) == ("/w/a.py", "x = 1\n")
    assert (edit["old"], edit["code"]) == ("y = 1", "y = 2")
    assert json.loads(read["text"]) == {"file_path": "/w/c.py"}
    assert result["error"] is True and result["text"] == "boom"
    assert "input_tokens 10, output_tokens 3" in final["text"] and "Done." in final["text"]
    assert "plugins: p" in items[1]["text"]


def test_a_long_text_is_kept_cut_and_says_how_much() -> None:
    big = "y" * (transcript.KEEP_CHARS + 123)
    (item,) = _items(
        _lines({"type": "user", "message": {"content": [{"type": "tool_result", "content": big}]}})
    )
    assert len(item["text"]) == transcript.KEEP_CHARS and item["cut"] == 123


def test_the_prompt_is_the_first_requests_user_text_without_the_clis_reminder() -> None:
    line = json.dumps(
        {
            "body": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "<system-reminder>\ngit status\n</system-reminder>"},
                            {"type": "text", "text": "Add a function."},
                        ],
                    }
                ]
            }
        }
    )
    assert transcript.prompt_from_requests(line) == "Add a function."
    assert transcript.prompt_from_requests("torn {") is None


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "workspace"
    (ws / "pkg").mkdir(parents=True)
    (ws / "pkg" / "a.py").write_text("one\ntwo\nthree\n")
    (ws / "gone.py").write_text("bye\n")
    snapshot(ws)
    return ws


def test_diff_against_the_seeded_base_shows_changed_new_and_deleted_files(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    (ws / "pkg" / "a.py").write_text("one\nTWO\nthree\n")
    (ws / "gone.py").unlink()
    (ws / "new.py").write_text("fresh\n")
    (ws / "blob.bin").write_bytes(b"\0\1\2")
    base = diff.base_files(ws)
    assert base == {"pkg/a.py": b"one\ntwo\nthree\n", "gone.py": b"bye\n"}
    text = diff.workspace_diff(ws, lambda: base)
    assert "diff --git a/pkg/a.py b/pkg/a.py\n--- a/pkg/a.py\n+++ b/pkg/a.py\n" in text
    assert "-two\n+TWO\n" in text
    assert "diff --git a/gone.py b/gone.py\ndeleted file\n" in text and "-bye\n" in text
    assert (
        "diff --git a/new.py b/new.py\nnew file\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,1 @@\n+fresh\n"
        in text
    )
    assert "diff --git a/blob.bin b/blob.bin\nnew file\nBinary files differ\n" in text
    assert ".git/" not in text


def test_diff_never_follows_a_symlink_nor_runs_what_the_agent_put_in_git_config(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET\n")
    (ws / "link.py").symlink_to(secret)
    ran = tmp_path / "filter-ran"
    with open(ws / ".git" / "config", "a") as fh:
        fh.write(f'[filter "evil"]\n\tclean = touch {ran}\n\tsmudge = touch {ran}\n')
    (ws / ".gitattributes").write_text("* filter=evil\n")
    text = diff.workspace_diff(ws, lambda: diff.base_files(ws))
    assert f"+{secret}" in text and "TOP SECRET" not in text
    assert not ran.exists()


def test_with_the_seeded_manifest_git_is_read_only_when_a_seeded_file_changed(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    seeded = {rel: hashlib.sha256((ws / rel).read_bytes()).hexdigest() for rel in ("pkg/a.py", "gone.py")}
    (ws / "new.py").write_text("fresh\n")

    def no_git() -> dict[str, bytes]:
        raise AssertionError("the base was read although no seeded file changed")

    only_new = diff.workspace_diff(ws, no_git, seeded)
    assert only_new == diff.workspace_diff(ws, lambda: diff.base_files(ws))
    assert only_new.startswith("diff --git a/new.py b/new.py\nnew file\n")
    (ws / "pkg" / "a.py").write_text("one\n")
    (ws / "gone.py").unlink()
    changed = diff.workspace_diff(ws, lambda: diff.base_files(ws), seeded)
    assert changed == diff.workspace_diff(ws, lambda: diff.base_files(ws))
    assert "-two\n-three\n" in changed and "deleted file" in changed


def test_a_workspace_without_git_has_no_base(tmp_path: Path) -> None:
    with pytest.raises(diff.BaseUnreadable, match="no .git"):
        diff.base_files(tmp_path)


def _run_dir(path: Path, recs: list[Record], run: dict[str, Any] | None = None) -> Path:
    path.mkdir(parents=True)
    (path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    (path / "run.json").write_text(json.dumps(run or {}))
    return path


def _rec(task: str, arm: str, run: int = 0, **fields: Any) -> Record:
    return loaded(
        {
            "cell_id": f"{task}-{arm}-m-r{run}",
            "task": task,
            "arm": arm,
            "model": "m",
            "run": run,
            "attempt": 1,
            "valid": True,
            "correct": True,
            "safe": True,
            "reason": "",
            **fields,
        }
    )


def test_cell_folders_of_retried_attempts_and_of_a_rescore_dir(tmp_path: Path) -> None:
    run = _run_dir(
        tmp_path / "runs" / "s1", [_rec("t", "baseline", attempt=1), _rec("t", "baseline", attempt=2)]
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
    rescore = _run_dir(run / "rescore-s2", [_rec("t", "baseline", attempt=2, rescored_from=str(moved))])
    assert load(rescore).cell_folder(load(rescore).records[0]) == cells / "t-baseline-m-r0"


def test_inline_data_cannot_end_its_script_block() -> None:
    text = page._script_json({"reason": HOSTILE, "x": "a & b > c"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"reason": HOSTILE, "x": "a & b > c"}


def test_report_of_a_small_run_holds_the_summary_figures_and_no_raw_markup(tmp_path: Path) -> None:
    recs = [
        _rec("t1", "baseline", total_loc=10, cost_usd=0.5),
        _rec("t1", "told", correct=False, reason=f"check failed {HOSTILE}", total_loc=12, cost_usd=0.75),
        _rec("t2", "baseline", total_loc=8, cost_usd=0.25),
        _rec("t2", "told", total_loc=9, cost_usd=0.5, extra={"note": HOSTILE}),
        _rec("t2", "told", run=1, valid=False, error=f"API error {HOSTILE}"),
    ]
    arms = [
        {"name": "baseline", "kind": "baseline", "hash": "b0"},
        {"name": "told", "kind": "prompt", "hash": "t0", "prompt": HOSTILE},
    ]
    run = _run_dir(tmp_path / "run", recs, {"arms": arms, "options": {"models": ["m"], "runs": 2}})
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
    run = _run_dir(tmp_path / "run", [_rec("t", "baseline")])
    (tmp_path / "mine").mkdir()
    with pytest.raises(FileExistsError, match="is not a report's cell folder"):
        write_report(run, tmp_path / "mine.html")
    with pytest.raises(FileExistsError, match="is a folder; name the page's file"):
        write_report(run, tmp_path / "mine")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "run"]  # nothing left behind


def test_the_report_command_prints_the_page_and_names_a_bad_run_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _run_dir(tmp_path / "run", [_rec("t", "baseline"), _rec("t", "told", correct=False, reason="r")])
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
    recs = [_rec("t1", str(a["name"])) for a in arms]
    run = _run_dir(tmp_path / "run", recs, {"arms": arms, "options": {"models": ["m"], "runs": 1}})
    html = write_report(run).read_text()
    assert (
        "plugin /p/plugins/mine (git 0123456789ab, clean); CLAUDE.md /p/arms/CLAUDE.md @user; "
        "skills /p/arms/skills (tidy, name); output style /p/arms/terse.md (Terse)"
    ) in html
    assert '<td class="what">settings: {&#34;model&#34;: &#34;x&#34;}</td>' in html
    assert '<td class="what">nothing added</td>' in html


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
    run = _run_dir(
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
    recs = [_rec("t", "baseline"), _rec("t", "told", correct=False, reason="r")]
    run = _run_dir(tmp_path / "run", recs)
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
        _rec("t1", "baseline", safe=False, reason=f"]: {message}", checks=checks),  # as written once
        _rec("t2", "baseline", correct=False, reason=f"test_correct.py::test_long: {long}"),
    ]
    run = _run_dir(tmp_path / "run", recs)
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


def _stream(folder: Path, *events: dict[str, Any]) -> None:
    folder.mkdir(parents=True)
    (folder / "claude.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))


def _init(**listed: Any) -> dict[str, Any]:
    builtin = [{"name": "cc-plugin-privacy", "path": "builtin"}]
    return {
        "type": "system",
        "subtype": "init",
        "plugins": builtin + listed.pop("plugins", []),
        "skills": ["debug", *listed.pop("skills", [])],
        "slash_commands": ["doctor", *listed.pop("slash_commands", [])],
        "agents": ["Explore", *listed.pop("agents", [])],
        "mcp_servers": listed.pop("mcp_servers", []),
    }


def test_what_an_arm_brings_is_read_from_its_session_beside_the_baselines(tmp_path: Path) -> None:
    recs = [_rec("t", "baseline"), _rec("t", "mine")]
    run = _run_dir(tmp_path / "run", recs, {"arms": [{"name": "baseline"}, {"name": "mine"}]})
    _stream(run / "cells" / "t-baseline-m-r0", _init())
    _stream(
        run / "cells" / "t-mine-m-r0",
        {"type": "system", "subtype": "hook_started", "hook_event": "SessionStart"},
        {
            "type": "system",
            "subtype": "hook_response",
            "hook_event": "SessionStart",
            "outcome": "error",
            "exit_code": 1,
        },
        _init(
            plugins=[{"name": "mine", "path": "/x/mine"}],
            skills=["mine:review"],
            slash_commands=["mine:review"],
            agents=["mine:checker"],
            mcp_servers=[{"name": "notes", "status": "connected"}, {"name": "broken", "status": "failed"}],
        ),
    )
    html = write_report(run).read_text()
    assert (
        '<td class="brings">plugins mine; hooks SessionStart (error, exit 1); skills mine:review; '
        "commands mine:review; agents mine:checker; mcp servers notes, broken (failed)</td>"
    ) in html
    assert '<td class="brings">-</td>' in html  # the baseline brings nothing


def test_what_an_arm_brings_is_the_preflights_evidence_when_it_ran(tmp_path: Path) -> None:
    evidence = {
        "parts": [
            {
                "kind": "plugin",
                "plugins": ["mine", "cc-plugin-privacy"],
                "hook_events": ["SessionStart", "PreToolUse"],
                "registered": {"skills": ["mine:review"], "agents": [], "commands": ["mine:go"]},
            },
            {
                "kind": "mcp",
                "mcp_servers": {"notes": "connected"},
                "mcp_tools": {"notes": ["mcp__notes__add"]},
            },
        ]
    }
    pre = {"ran": True, "arms": [{"arm": "both", "ok": True, "problems": [], "evidence": evidence}]}
    recs = [_rec("t", "baseline"), _rec("t", "both")]
    run = _run_dir(
        tmp_path / "run", recs, {"arms": [{"name": "baseline"}, {"name": "both"}], "preflight": pre}
    )
    html = write_report(run).read_text()
    assert (
        '<td class="brings">hooks SessionStart, PreToolUse; skills mine:review; commands mine:go; '
        "mcp servers notes</td>"
    ) in html


def test_the_pass_line_of_an_arm_graded_by_graders_alone_says_no_cell_has_a_pass() -> None:
    """Nine valid cells of tasks graded by graders alone: not "no valid cell"."""
    totals: dict[tuple[str, str], dict[str, object]] = {("m", "a"): {"valid": 9, "scored": 0, "passed": None}}
    assert page._pass_text(totals, "m", "a") == "a no cell has a pass (graded by graders alone)"
    assert page._pass_text(totals, "m", "b") == "b no valid cell"
    totals[("m", "b")] = {"valid": 0, "scored": 0, "passed": None}
    assert page._pass_text(totals, "m", "b") == "b no valid cell"
