"""Conversations and mocked tools through the real CLI, offline: a task of two turns whose second
builds on the first, a turn played until its grader passes, a conversation that continues a
history file with a mocked MCP tool, and a `claude plugin eval` case of that kind imported and run.

Each turn is a session of its own through the one launcher, resuming the one before on the cell's
one gateway seat: the second session's requests carry the first's answer, and the record keeps
every turn's reply, calls, tokens, dollars and time.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.cpe.importer import import_suite, render
from pytest_ponybench.store.celldir import CellDir
from tests.support import REPO, records, run_dirs, write

pytestmark = pytest.mark.needs_claude

EXAMPLES = REPO / "examples" / "conversation-tasks"
TICKETS = REPO / "tests" / "unit" / "data" / "cpe" / "ticket-evals"
UNTIL_TOML = """\
kind = "open"
axis = "correct"

[[turns]]
prompt = "Spell that codename backwards."
until = "reversed"
max_plays = 2

[[graders]]
name = "reversed"
type = "regex"
turn = 2
pattern = "DRIBEULB"
axis = "correct"
"""


def project(root: Path, tasks: dict[str, Path]) -> Path:
    bench = root / "benchmarks"
    for name, folder in tasks.items():
        shutil.copytree(folder, bench / "tasks" / name)
    shutil.copy(REPO / "benchmarks" / "test_cells.py", bench / "test_cells.py")
    write(root / "pyproject.toml", '[tool.ponybench]\nout = "runs"\n\n[tool.ponybench.arms]\nbaseline = {}\n')
    return root


def until_task(root: Path) -> Path:
    folder = root / "codename"
    write(folder / "task.toml", UNTIL_TOML)
    write(folder / "prompt.md", "Pick a codename for the project and say it in capitals.\n")
    write(
        folder / "good" / "ref.toml",
        'reply = "BLUEBIRD"\ngraders = { reversed = true }\n[[turns]]\nreply = "DRIBEULB"\n',
    )
    write(
        folder / "bad" / "ref.toml",
        'reply = "BLUEBIRD"\ngraders = { reversed = false }\n[[turns]]\nreply = "BIRDBLUE"\n',
    )
    return folder


def run_grid(pytester: pytest.Pytester, *args: str) -> tuple[Path, dict[tuple[str, str], dict[str, Any]]]:
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-reference,offline-flawed",
        "-p",
        "no:cacheprovider",
        *args,
    )
    (run_dir,) = run_dirs(pytester.path)
    recs = {(r["task"], r["model"]): r for r in records(run_dir)}
    assert recs and all(r["valid"] for r in recs.values()), result.stdout.str()[-3000:]
    return run_dir, recs


def offline_requests(run_dir: Path, rec: dict[str, Any]) -> list[dict[str, Any]]:
    """What the offline server was asked for this cell: its agent loop's requests, in order."""
    log = CellDir(run_dir / "cells" / rec["cell_id"]).requests
    bodies = [json.loads(line)["body"] for line in log.read_text().splitlines() if line.strip()]
    return [b for b in bodies if b.get("tools")]


def texts(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    return [str(b.get("text", "")) for b in content or [] if b.get("type") == "text"]


def test_turns_until_and_mocked_tools_through_the_real_cli(pytester: pytest.Pytester) -> None:
    root = project(
        pytester.path,
        {
            "slug_followup": EXAMPLES / "slug_followup",
            "file_the_bug": EXAMPLES / "file_the_bug",
            "codename": until_task(pytester.path / "src"),
        },
    )
    selftest = pytester.runpytest_subprocess("--selftest-only", "-p", "no:cacheprovider")
    # Every grader of one turn and of the mock calls proven both ways on the references.
    selftest.stdout.fnmatch_lines(
        [
            "file_the_bug: * 3 graders, 9/9 outcomes as declared",
            "slug_followup: * 3 graders, 9/9 outcomes as declared",
            "*0 task(s) flagged",
        ]
    )
    run_dir, recs = run_grid(pytester)
    assert root == pytester.path

    # Two turns, the second building on the first: the reference passes, the flawed agent fails
    # turn 2's grader (and the checks of the final state).
    good, bad = recs[("slug_followup", "offline-reference")], recs[("slug_followup", "offline-flawed")]
    assert good["correct"] and good["score"] == 1.0, good["reason"]
    outcome = {g["name"]: g for g in bad["graders"]}
    assert outcome["wrote_first"]["passed"] and outcome["kept_turn_one"]["passed"]
    assert outcome["filters"]["passed"] is False
    assert (
        outcome["filters"]["explanation"]
        == "turn 2: 0 successful call(s) of Edit with new_string ~ 'isalnum' (min 1)"
    )
    assert not bad["correct"] and "test_punctuation_is_dropped" in bad["reason"]
    turns = good["conversation"]
    assert [(t["turn"], t["play"], t["tool_uses"]) for t in turns] == [
        (1, 1, {"Write": 1}),
        (2, 1, {"Read": 1, "Edit": 1}),
    ]
    # Each turn's figures are the gateway's for its own requests, and they add up to the cell's.
    assert all(t["input_tokens"] > 0 and t["cost_usd"] > 0 and t["wall_s"] > 0 for t in turns)
    assert sum(t["cost_usd"] for t in turns) == pytest.approx(good["cost_usd"], abs=1e-6)
    assert turns[0]["requests"][-1] < turns[1]["requests"][0]
    # One conversation: the second session is the first resumed (same session id), and its
    # first request carried the first turn's answer and the second turn's message.
    cell = CellDir(run_dir / "cells" / good["cell_id"])
    ids = {
        json.loads(line).get("session_id") for p in (cell.stream, cell.play(2).stream) for line in p.open()
    }
    assert len(ids - {None}) == 1, ids
    asked = offline_requests(run_dir, good)
    second = next(b for b in asked if any(turns[1]["prompt"] in t for m in b["messages"] for t in texts(m)))
    carried = [t for m in second["messages"] for t in texts(m)]
    assert turns[0]["reply"] in carried and turns[0]["prompt"] in " ".join(carried)
    assert good["turns"] >= 2 and good["meter_mismatch"] is None

    # Played until its grader passes: once for the reference, to the cap for the flawed agent.
    plays = {
        m: [(t["play"], t.get("until")) for t in recs[("codename", m)]["conversation"]]
        for m in ("offline-reference", "offline-flawed")
    }
    assert plays["offline-reference"] == [(1, None), (1, {"grader": "reversed", "passed": True})]
    assert plays["offline-flawed"] == [
        (1, None),
        (1, {"grader": "reversed", "passed": False}),
        (2, {"grader": "reversed", "passed": False}),
    ]
    assert (
        CellDir(run_dir / "cells" / recs[("codename", "offline-flawed")]["cell_id"])
        .play(2, 2)
        .stream.is_file()
    )

    # A continued conversation with a mocked tracker: the history reached the model first; the
    # reference files the ticket, the flawed agent calls the wrong tool, which the cell names.
    good, bad = recs[("file_the_bug", "offline-reference")], recs[("file_the_bug", "offline-flawed")]
    assert good["correct"] and good["confined"], good["reason"]
    first = offline_requests(run_dir, good)[0]["messages"]
    assert "empty password" in " ".join(texts(first[0]))  # the history's first message
    (call,) = good["mock_calls"]
    assert call["name"] == "mcp__tracker__create_ticket" and call["verdict"] == "ok"
    assert call["response"] == (
        '{"id": "BUG-4117", "title": "Login page crashes on an empty password", "status": "open"}'
    )
    assert good["mocks_uncalled"] == []
    assert [c["name"] for c in bad["mock_calls"]] == ["mcp__tracker__search_tickets"]
    assert bad["mocks_uncalled"] == [{"tool": "mcp__tracker__create_ticket", "grader": "filed"}]
    assert not bad["correct"] and "grader filed (tool_used) failed" in bad["reason"]
    # The stand-in was started by the CLI inside the cell, and connected.
    init = next(
        json.loads(line)
        for line in CellDir(run_dir / "cells" / good["cell_id"]).stream.open()
        if '"subtype":"init"' in line.replace(" ", "")
    )
    assert {"name": "tracker", "status": "connected"}.items() <= next(
        s for s in init["mcp_servers"] if s["name"] == "tracker"
    ).items()


def test_a_cpe_case_with_history_and_mocks_is_imported_and_run(pytester: pytest.Pytester) -> None:
    root = pytester.path
    tasks = root / "benchmarks" / "tasks"
    done = import_suite(TICKETS, tasks, cwd=root)
    checklist = render(done, cwd=root)
    assert "no equivalent" not in checklist and "history_file" not in checklist, checklist
    folder = tasks / "file-the-bug"
    assert (folder / "history" / "history.jsonl").read_bytes() == (
        TICKETS / "file-the-bug" / "history.jsonl"
    ).read_bytes()
    # What the import's checklist asks: a reference that passes every grader and one that fails.
    write(
        folder / "good" / "ref.toml",
        'reply = "Filed: BUG-4117."\n'
        'tool_calls = [{ tool = "mcp__tracker__create_ticket", input = { title = "Login crashes on an empty '
        'password" } }]\n'
        "graders = { filed-ticket = true, ticket-call = true, tells-id = true }\n",
    )
    write(
        folder / "bad" / "ref.toml",
        'reply = "There is no ticket for it."\n'
        'tool_calls = [{ tool = "mcp__tracker__search_tickets", input = { query = "login" } }]\n'
        "graders = { filed-ticket = false, ticket-call = false, tells-id = false }\n",
    )
    project(root, {})
    pytester.runpytest_subprocess("--selftest-only", "-p", "no:cacheprovider").stdout.fnmatch_lines(
        ["file-the-bug: * 3 graders, 6/6 outcomes as declared"]
    )
    _, recs = run_grid(pytester, "--runs", "1")
    good, bad = recs[("file-the-bug", "offline-reference")], recs[("file-the-bug", "offline-flawed")]
    assert good["score"] == 1.0 and [c["name"] for c in good["mock_calls"]] == ["mcp__tracker__create_ticket"]
    assert good["mock_calls"][0]["response"].startswith('{"id": "BUG-4117"')  # {{input.project}} is empty
    assert bad["score"] == 0.0 and bad["mocks_uncalled"] == [
        {"tool": "mcp__tracker__create_ticket", "grader": "filed-ticket"},
        {"tool": "mcp__tracker__create_ticket", "grader": "ticket-call"},
    ]
    assert [t["turn"] for t in good["conversation"]] == [1]  # a continuation: one turn after the history
