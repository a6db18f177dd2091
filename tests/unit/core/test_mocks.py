"""A task's MCP mocks (`mocks/<server>/<tool>.md`, `claude plugin eval`'s format): read and checked
with the task, answered as the CLI's fixed stand-ins answer (a fixed text, a template over the
input, an error, a guard that refuses), served by the project's stdio server over JSON-RPC (run
here as a real process), and read by graders as `mock_calls`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench._util.mockanswer import answer
from pytest_ponybench._util.paths import PROBES
from pytest_ponybench.core.graders import cell
from pytest_ponybench.core.graders.evidence import CellEvidence, ToolCall, mock_calls_of
from pytest_ponybench.core.graders.outcome import GradeContext
from pytest_ponybench.core.mocks import MockCall, Mocks, load_mocks
from pytest_ponybench.core.tasks import TaskError, load_task
from tests.support import write

CREATE = """\
---
expect:
  title: string
  priority: [low, high]
---

{"id": "BUG-{{input.priority}}-7", "title": "{{input.title}}", "labels": {{input.labels}}}
"""
LISTING = {
    "tools": [
        {
            "name": "create_ticket",
            "description": "File a ticket; returns its id.",
            "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}},
        }
    ]
}


def mocks_folder(task: Path) -> Path:
    write(task / "mocks" / "tickets" / "create_ticket.md", CREATE)
    write(task / "mocks" / "tickets" / "_tools.json", json.dumps(LISTING))
    write(task / "mocks" / "tickets" / "search.md", "---\ntype: fixed\n---\n\n{{file:found/{input.q}.txt}}\n")
    write(task / "mocks" / "tickets" / "found" / "login.txt", "BUG-1: login page crashes\n")
    write(
        task / "mocks" / "tickets" / "close.md",
        "---\nerror: true\n---\n\npermission denied: read-only token\n",
    )
    return task


def loaded(task: Path) -> tuple[Mocks | None, list[str]]:
    problems: list[str] = []
    return load_mocks(task, problems.append), problems


def test_the_mocks_are_read_as_the_cli_reads_them(tmp_path: Path) -> None:
    mocks, problems = loaded(mocks_folder(tmp_path / "t"))
    assert problems == [] and mocks is not None
    assert mocks.tools == {"mcp__tickets__create_ticket", "mcp__tickets__search", "mcp__tickets__close"}
    spec = mocks.spec("tickets")
    listed = {t["name"]: t for t in spec["tools"]}
    assert listed["create_ticket"]["description"] == "File a ticket; returns its id."
    assert listed["search"]["inputSchema"] == {"type": "object", "additionalProperties": True}
    assert spec["responders"]["create_ticket"]["expect"] == {"title": "string", "priority": ["low", "high"]}


def test_each_answer_as_the_cli_gives_it(tmp_path: Path) -> None:
    mocks, _ = loaded(mocks_folder(tmp_path / "t"))
    assert mocks is not None
    given = {"title": "Login fails", "priority": "high", "labels": ["auth", "ui"]}
    assert mocks.answer("mcp__tickets__create_ticket", given) == (
        "ok",
        '{"id": "BUG-high-7", "title": "Login fails", "labels": ["auth","ui"]}',
    )
    # A guard the input breaks: CPE stops the run there; here the call is answered so, as `abort`.
    verdict, text = mocks.answer("mcp__tickets__create_ticket", {"title": "x", "priority": "urgent"})
    assert verdict == "abort"
    assert text == (
        "eval aborted by mock: tickets/create_ticket -- input violates expect: "
        'priority = "urgent" is not one of [low, high]'
    )
    assert mocks.answer("mcp__tickets__search", {"q": "login"}) == ("ok", "BUG-1: login page crashes\n")
    assert mocks.answer("mcp__tickets__search", {"q": "../../etc/passwd"})[0] == "tool_error"
    assert mocks.answer("mcp__tickets__search", {"q": "nothing"}) == (
        "tool_error",
        "{{file:found/nothing.txt}}: no such file in the mock's folder",
    )
    assert mocks.answer("mcp__tickets__close", {}) == ("tool_error", "permission denied: read-only token")
    assert mocks.answer("mcp__tickets__gone", {}) == ("tool_error", "no mock for mcp__tickets__gone")


@pytest.mark.parametrize(
    ("guard", "value", "broken"),
    [
        ("number", 3, None),
        ("number", "3", 'n = "3" is not a number'),
        ("/^BUG-\\d+$/", "BUG-12", None),
        ("/^bug/i", "BUG-12", None),
        ("/^BUG-\\d+$/", "BUG-x", 'n = "BUG-x" does not match /^BUG-\\d+$/'),
        ("3", 3, None),
        ("true", True, None),
        ("bool", "true", 'n = "true" is not a bool'),
    ],
)
def test_a_guard_reads_the_input_as_the_cli_does(guard: str, value: Any, broken: str | None) -> None:
    verdict, text = answer({"body": "ok", "expect": {"n": guard}}, {"n": value}, lambda name: None)
    assert (verdict, text) == (
        ("ok", "ok") if broken is None else ("abort", f"input violates expect: {broken}")
    )


@pytest.mark.parametrize(
    ("files", "problem"),
    [
        (
            {"tickets/x.md": "---\ntype: agent\n---\n\nYou are a ticket system.\n"},
            "key 'type': a mock a model plays",
        ),
        (
            {"tickets/x.md": "---\nabort_when: it deletes\n---\n\nok\n"},
            "key 'abort_when': a mock a model plays",
        ),
        (
            {"tickets/_server.md": "---\ntype: agent\ntools: [a]\n---\nplay\n"},
            "_server.md: one agent answering",
        ),
        ({"tickets/x.md": "---\ncolour: red\n---\nok\n"}, "key 'colour' is not a mock's key"),
        ({"tickets/x.md": "---\nerror: yes\n---\nok\n"}, "key 'error' must be true or false, not 'yes'"),
        ({"tickets/x.md": "---\nexpect: {a: []}\n---\nok\n"}, "expect.a: an empty list of allowed values"),
        ({"tickets/x.md": "---\nexpect: {a: /x/g}\n---\nok\n"}, "only the i and s flags are supported"),
        ({"tickets/x.md": "{{file:gone.txt}}\n"}, "{{file:gone.txt}} names no file of mocks/tickets/"),
        ({"tic.kets/x.md": "ok\n"}, "mocks/tic.kets/: name the folder after the server's part"),
        ({"tickets/a__b.md": "ok\n"}, "mocks/tickets/a__b.md: name the file after the tool"),
        ({"tickets/notes.txt": "ok\n"}, "mocks/tickets/: has no <tool>.md: nothing is mocked for tickets"),
        ({"tickets/_tools.json": '{"tools": 3}', "tickets/x.md": "ok"}, "expected a saved tools/list"),
        ({"tickets/x.md": "---\na: [\n---\nok\n"}, "mocks/tickets/x.md: not valid YAML"),
    ],
)
def test_a_bad_mock_is_one_problem_naming_its_file_and_key(
    tmp_path: Path, files: dict[str, str], problem: str
) -> None:
    for rel, text in files.items():
        write(tmp_path / "mocks" / rel, text)
    _, problems = loaded(tmp_path)
    assert len(problems) == 1 and problem in problems[0], problems


def test_the_stand_in_server_speaks_mcp_over_stdio(tmp_path: Path) -> None:
    """The server as a cell starts it: a copy of the probe and of mockanswer.py, the spec beside
    the server's folder of mocks, `python -I -S`."""
    task = mocks_folder(tmp_path / "t")
    mocks, _ = loaded(task)
    assert mocks is not None
    copy = tmp_path / "copy"
    shutil.copytree(task / "mocks", copy / "mocks")
    shutil.copy(PROBES / "mock_server.py", copy / "mock_server.py")
    shutil.copy(PROBES.parent / "_util" / "mockanswer.py", copy / "mockanswer.py")
    (copy / "tickets.json").write_text(json.dumps(mocks.spec("tickets")))
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {
                "name": "create_ticket",
                "arguments": {"title": "Crash", "priority": "low", "labels": []},
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "search", "arguments": {"q": "login"}},
        },
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "close", "arguments": {}}},
        {
            "jsonrpc": "2.0",
            "id": 6,
            "method": "tools/call",
            "params": {"name": "create_ticket", "arguments": {}},
        },
        {"jsonrpc": "2.0", "id": 7, "method": "resources/list"},
    ]
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(copy / "mock_server.py"), str(copy / "tickets.json")],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        timeout=30,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    answers = {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}
    assert sorted(answers) == [1, 2, 3, 4, 5, 6, 7]  # the notification got no answer
    assert answers[1]["result"]["protocolVersion"] == "2025-06-18"
    assert [t["name"] for t in answers[2]["result"]["tools"]] == ["close", "create_ticket", "search"]

    def said(n: int) -> tuple[str, bool]:
        result = answers[n]["result"]
        return result["content"][0]["text"], result["isError"]

    assert said(3) == ('{"id": "BUG-low-7", "title": "Crash", "labels": []}', False)
    assert said(4) == ("BUG-1: login page crashes\n", False)
    assert said(5) == ("permission denied: read-only token", True)
    text, error = said(6)
    assert error and text.startswith("eval aborted by mock: tickets/create_ticket -- input violates expect")
    assert answers[7]["error"]["code"] == -32601
    # The harness proves graders with the same answers the server gives.
    assert mocks.answer(
        "mcp__tickets__create_ticket", {"title": "Crash", "priority": "low", "labels": []}
    ) == (
        "ok",
        said(3)[0],
    )


def mock_evidence(*calls: tuple[str, dict[str, Any], str, bool]) -> CellEvidence:
    tool_calls = [ToolCall(n, t, i, result=r, is_error=e) for n, (t, i, r, e) in enumerate(calls)]
    mocked = frozenset({"mcp__tickets__create_ticket", "mcp__tickets__search"})
    return CellEvidence(tool_calls=tuple(tool_calls), mock_calls=mock_calls_of(tool_calls, mocked))


def graded(task: Path, evidence: CellEvidence) -> dict[str, tuple[bool | None, str]]:
    loaded_task = load_task(task)
    return {
        o.name: (o.passed, o.explanation)
        for o in (cell.grade_one(g, evidence, GradeContext()) for g in loaded_task.graders)
    }


GRADERS = """\
kind = "open"

[[graders]]
name = "filed"
type = "tool_used"
target = "mock_calls"
tool = "mcp__tickets__create_ticket"
input = { path = "priority", regex = "^high$" }

[[graders]]
name = "said_id"
type = "regex"
target = "mock_calls"
pattern = '"output":"\\{\\\\"id\\\\": \\\\"BUG-'

[[graders]]
name = "no_search"
type = "tool_absent"
target = "mock_calls"
tool = "mcp__tickets__search"
"""


def open_task(root: Path, graders: str = GRADERS) -> Path:
    task = mocks_folder(root / "t")
    write(task / "task.toml", graders)
    write(task / "prompt.md", "File the bug.\n")
    write(task / "good" / "ref.toml", "")
    write(task / "bad" / "ref.toml", "")
    return task


def test_graders_read_the_mock_calls(tmp_path: Path) -> None:
    task = open_task(tmp_path)
    good = mock_evidence(
        ("Read", {"file_path": "/w/a.py"}, "x", False),
        ("mcp__tickets__create_ticket", {"title": "t", "priority": "high"}, '{"id": "BUG-high-7"}', False),
    )
    outcomes = graded(task, good)
    assert (
        outcomes["filed"][0] is True and outcomes["said_id"][0] is True and outcomes["no_search"][0] is True
    )
    assert good.mock_text == (
        '{"tool":"mcp__tickets__create_ticket","input":{"title":"t","priority":"high"},'
        '"output":"{\\"id\\": \\"BUG-high-7\\"}","verdict":"ok"}'
    )
    wrong = mock_evidence(("mcp__tickets__search", {"q": "login"}, "BUG-1", False))
    outcomes = graded(task, wrong)
    assert outcomes["filed"] == (
        False,
        "0 successful call(s) of mcp__tickets__create_ticket with priority ~ '^high$' (min 1)",
    )
    assert outcomes["no_search"][0] is False and outcomes["said_id"][0] is False
    # The one a grader names and the agent never called; the search it did call is not named.
    assert cell.uncalled_mocks(load_task(task).graders, load_task(task).mocks.tools, wrong) == [  # type: ignore[union-attr]
        {"tool": "mcp__tickets__create_ticket", "grader": "filed"}
    ]


def test_the_record_keeps_name_input_response_and_verdict() -> None:
    call = MockCall("mcp__tickets__create_ticket", {"title": "t"}, "eval aborted by mock: x", True, turn=2)
    assert CellEvidence(mock_calls=(call,)).record_mock_calls() == [
        {
            "name": "mcp__tickets__create_ticket",
            "input": {"title": "t"},
            "response": "eval aborted by mock: x",
            "verdict": "abort",
            "turn": 2,
        }
    ]


@pytest.mark.parametrize(
    ("graders", "problem"),
    [
        (
            '[[graders]]\nname = "g"\ntype = "tool_used"\ntarget = "mock_calls"\n'
            'tool = "mcp__tickets__gone"\n',
            "key 'target': 'mock_calls', but tool 'mcp__tickets__gone' names no mocked tool",
        ),
        (
            '[[graders]]\nname = "g"\ntype = "tool_used"\ntarget = "mocks"\ntool = "Read"\n',
            "key 'target' is 'mocks'; expected one of tool_calls, mock_calls",
        ),
    ],
)
def test_a_grader_of_mock_calls_names_a_mocked_tool(tmp_path: Path, graders: str, problem: str) -> None:
    task = open_task(tmp_path, 'kind = "open"\n\n' + graders)
    with pytest.raises(TaskError) as info:
        load_task(task)
    assert any(problem in p for p in info.value.problems), info.value.problems


def test_mock_calls_need_mocks(tmp_path: Path) -> None:
    task = tmp_path / "t"
    write(
        task / "task.toml",
        'kind = "open"\n[[graders]]\nname = "g"\ntype = "regex"\ntarget = "mock_calls"\npattern = "x"\n',
    )
    write(task / "prompt.md", "Go.\n")
    write(task / "good" / "ref.toml", "")
    write(task / "bad" / "ref.toml", "")
    with pytest.raises(
        TaskError, match="'mock_calls' reads the calls of the task's mocked MCP tools, and it has no mocks/"
    ):
        load_task(task)
