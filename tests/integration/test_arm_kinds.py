"""Every arm kind proven through the real claude CLI against the offline server: an MCP config
(its server confined with the agent), a CLAUDE.md in the workspace or the user's memory, a
skills folder, subagents, an output style, and arms composed of several parts. A part the
session does not show is refused by the pre-flight, naming the part."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import Arm, parse_spec
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.tasks import load_task
from pytest_ponybench.isolation import confine
from pytest_ponybench.offline.endpoint import OfflineEndpoint
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.roles import preflight
from pytest_ponybench.session.run import CellContext, run_cell
from pytest_ponybench.store.results import RunDir
from tests.support import CLAUDE, REPO, records, run_dirs

pytestmark = pytest.mark.needs_claude

ARMS = REPO / "tests" / "arms"
NOTES = REPO / "examples" / "notes-mcp"
MD_MARKER = "PONYBENCH-CLAUDE-MD-5521"
STYLE_MARKER = "PONYBENCH-STYLE-8812"


@pytest.fixture(scope="module")
def server() -> Iterator[OfflineServer]:
    with OfflineServer() as srv:
        yield srv


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project root with the test arms, the example MCP server and a plugin."""
    root = tmp_path / "project"
    shutil.copytree(ARMS, root / "arms")
    shutil.copytree(NOTES, root / "mcp" / "notes")
    shutil.copytree(REPO / "tests" / "plugins" / "json-context", root / "plugins" / "json-context")
    return root


def check(spec: str, root: Path, server: OfflineServer) -> dict[str, Any]:
    return preflight.activation_check(parse_spec(spec, root), CLAUDE or "claude", server)


@pytest.mark.parametrize(
    ("spec", "evidence"),
    [
        (
            "notes=mcp:mcp/notes/mcp.json",
            {
                "mcp_servers": {"notes": "connected"},
                "mcp_tools": {"notes": ["mcp__notes__lookup", "mcp__notes__read_file"]},
            },
        ),
        ("house=claude-md:arms/memory/CLAUDE.md", {"claude_md_in_request": True}),
        ("mine=claude-md:arms/memory/CLAUDE.md@user", {"claude_md_in_request": True}),
        ("tidy=skills:arms/skills", {"skills_listed": ["name-things", "tidy-imports"]}),
        ("review=agents:arms/agents", {"agents_listed": ["strict-reviewer"]}),
        ("terse=output-style:arms/output-styles/terse.md", {"output_style_in_request": True}),
    ],
)
def test_each_kind_is_proven_in_the_preflight(
    spec: str, evidence: dict[str, Any], project: Path, server: OfflineServer
) -> None:
    result = check(spec, project, server)
    assert result["ok"], result
    assert result["evidence"] == evidence


def test_a_composed_arm_is_proven_part_by_part(project: Path, server: OfflineServer) -> None:
    result = check(
        "all=plugin:plugins/json-context+prompt:PONYBENCH-COMPOSED-77+claude-md:arms/memory/CLAUDE.md@user"
        "+skills:arms/skills/tidy-imports+agents:arms/agents+output-style:arms/output-styles/terse.md"
        "+mcp:mcp/notes/mcp.json",
        project,
        server,
    )
    assert result["ok"], result
    parts = result["evidence"]["parts"]
    assert [p["kind"] for p in parts] == [
        "plugin",
        "prompt",
        "claude-md",
        "skills",
        "agents",
        "output-style",
        "mcp",
    ]
    assert parts[0]["hook_context_reached"] is True and parts[1]["prompt_in_request"] is True
    assert parts[2]["claude_md_in_request"] and parts[5]["output_style_in_request"]
    assert parts[3]["skills_listed"] == ["tidy-imports"] and parts[4]["agents_listed"] == ["strict-reviewer"]
    assert parts[6]["mcp_servers"] == {"notes": "connected"}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_part_the_session_does_not_show_is_refused(tmp_path: Path, server: OfflineServer) -> None:
    # Built past the parser's checks, as a CLI that changed its reading would leave them.
    skill = write(tmp_path / "skills" / "review" / "SKILL.md", "no front matter, so no description\n")
    style = write(tmp_path / "styles" / "terse.md", "---\nname: Terse\n---\nAnswer tersely. PONY-S-1\n")
    agents = write(tmp_path / "agents" / "r.md", "---\nname: r\ndescription: d\n---\nbody\n").parent
    parts = (
        Part("skills", path=skill.parent.parent, names=("review",)),
        Part("output-style", path=style, names=("terse",)),  # selected by a name it does not have
        Part("agents", path=agents, names=("ghost",)),
        Part("prompt", text="PONY-P-1"),
    )
    result = preflight.activation_check(Arm("broken", parts), CLAUDE or "claude", server)
    assert result["problems"] == [
        "skills: its skill 'review' is not listed in the session's skills",
        "output-style: its output style 'terse' never reached the model's system prompt",
        "agents: its agent 'ghost' is not listed in the session's agents",
    ]
    assert result["evidence"]["parts"][3] == {"kind": "prompt", "prompt_in_request": True}


def test_an_mcp_server_that_does_not_start_is_refused(project: Path, server: OfflineServer) -> None:
    write(
        project / "dead" / "mcp.json",
        json.dumps({"mcpServers": {"dead": {"command": "python3", "args": ["-c", "raise SystemExit(3)"]}}}),
    )
    result = check("dead=mcp:dead/mcp.json", project, server)
    assert not result["ok"]
    assert result["problems"][0].startswith("its MCP server 'dead' did not connect (status failed)")


def confined_or_skip() -> None:
    state = confine.status()
    if not state.available:
        pytest.skip(f"confinement is not available here: {state.reason}")


def test_an_mcp_server_sees_its_own_folder_and_nothing_else_of_the_host(
    project: Path, server: OfflineServer
) -> None:
    confined_or_skip()
    # Its config names a server outside the config's folder: unconfined it would start; in the
    # cell that file does not exist, so the server never connects and the arm is refused.
    write(
        project / "elsewhere" / "mcp.json",
        json.dumps({"mcpServers": {"far": {"command": "python3", "args": [str(NOTES / "server.py")]}}}),
    )
    result = check("far=mcp:elsewhere/mcp.json", project, server)
    assert result["problems"] == [
        "its MCP server 'far' did not connect (status failed); in the cell it can read only its "
        "config's folder and the system"
    ]


TASK_TOML = """\
kind = "surgical"
file = "mod.py"
axis = "correct"
timeout = 30
"""
CHECK = "from mod import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


def mcp_task(root: Path, reads: list[str]) -> Path:
    """A task whose good reference calls the notes server's tools first, then writes mod.py."""
    folder = root / "tasks" / "notes_task"
    write(folder / "task.toml", TASK_TOML)
    write(folder / "prompt.md", "Write add(a, b) in mod.py.\n")
    write(folder / "checks" / "test_correct_add.py", CHECK)
    write(folder / "good" / "mod.py", "def add(a, b):\n    return a + b\n")
    write(folder / "bad" / "mod.py", "def add(a, b):\n    return a - b\n")
    calls = ['{ tool = "mcp__notes__lookup", input = { topic = "style" } }']
    calls += [f'{{ tool = "mcp__notes__read_file", input = {{ file = {json.dumps(f)} }} }}' for f in reads]
    write(folder / "good" / "ref.toml", f"tool_calls = [{', '.join(calls)}]\n")
    return folder


def tool_results(stream: Path) -> list[tuple[str, str, bool]]:
    """(tool, result text, is_error) of every call in a cell's stream, in order."""
    uses: dict[str, str] = {}
    out = []
    for line in stream.read_text().splitlines():
        event = json.loads(line)
        content = (
            (event.get("message") or {}).get("content") if isinstance(event.get("message"), dict) else None
        )
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_use":
                uses[block["id"]] = block["name"]
            elif block.get("type") == "tool_result":
                body = block.get("content")
                text = body if isinstance(body, str) else " ".join(str(b.get("text")) for b in body or [])
                out.append((uses.get(block["tool_use_id"], "?"), text, bool(block.get("is_error"))))
    return out


def test_a_cell_calls_the_mcp_tools_and_the_server_is_confined_with_it(
    project: Path, tmp_path: Path, server: OfflineServer
) -> None:
    confined_or_skip()
    hidden = mcp_task(tmp_path, [])
    task_file = hidden / "checks" / "test_correct_add.py"
    own = project / "mcp" / "notes" / "server.py"
    task = load_task(mcp_task(tmp_path, [str(task_file), str(REPO / "pyproject.toml"), str(own)]))
    arm = parse_spec("notes=mcp:mcp/notes/mcp.json", project)
    run_dir = RunDir(tmp_path / "run")
    run_dir.path.mkdir()
    ctx = CellContext(
        run_dir=run_dir,
        claude=CLAUDE or "claude",
        cell_timeout=60,
        max_turns=10,
        endpoint=OfflineEndpoint(server),
    )
    rec = run_cell(Cell(task, arm, "offline-reference", 0), ctx)
    assert rec["valid"] and rec["confined"] and rec["correct"], rec
    results = tool_results(run_dir.cell_dir(str(rec["cell_id"])).stream)
    mcp = [r for r in results if r[0].startswith("mcp__notes__")]
    assert mcp[0] == (
        "mcp__notes__lookup",
        "PONYBENCH-MCP-NOTE: functions stay under 30 lines; names say what, not how.",
        False,
    )
    # The task's hidden checks and the project are not there for it; its own files are.
    # (The CLI adds a hint about deferred schemas to an error result.)
    for tool, text, error in mcp[1:3]:
        assert tool == "mcp__notes__read_file" and error, (tool, text)
        assert text.startswith("cannot read: No such file or directory"), text
    assert mcp[3][0] == "mcp__notes__read_file" and mcp[3][1].startswith("#!/usr/bin/env python3")
    assert rec["tool_uses"]["mcp__notes__lookup"] == 1


def test_every_kind_runs_through_the_plugin_and_reaches_only_its_cells(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(
        tasks=["sql_lookup"],
        arms=(
            'baseline = {}\nnotes = { mcp = "mcp/notes/mcp.json" }\n'
            'house = { claude_md = "arms/memory/CLAUDE.md", skills = "arms/skills" }\n'
        ),
    )
    shutil.copytree(ARMS, root / "arms")
    shutil.copytree(NOTES, root / "mcp" / "notes")
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-reference",
        "--preflight",
        "--arm",
        "styled=agents:arms/agents+output-style:arms/output-styles/terse.md",
    )
    result.assert_outcomes(passed=4)
    run_dir = run_dirs(root)[0]
    run = json.loads((run_dir / "run.json").read_text())
    checked = {a["arm"]: a for a in run["preflight"]["arms"]}
    assert all(a["ok"] for a in checked.values()), checked
    assert [p["kind"] for p in checked["house"]["evidence"]["parts"]] == ["claude-md", "skills"]
    described = {a["name"]: a for a in run["arms"]}
    assert described["styled"]["kind"] == "agents+output-style"
    assert [p["kind"] for p in described["house"]["parts"]] == ["claude-md", "skills"]
    recs = {r["arm"]: r for r in records(run_dir)}
    assert len({r["arm_hash"] for r in recs.values()}) == 4
    for name, rec in recs.items():
        assert rec["valid"] and rec["correct"] and rec["agent_policy"] == {}, rec
        log = (run_dir / "cells" / rec["cell_id"] / "offline_requests.jsonl").read_text()
        assert (MD_MARKER in log) == (name == "house"), name
        assert (STYLE_MARKER in log) == (name == "styled"), name
        # The CLI names MCP tools in its prompt, their schemas deferred behind ToolSearch.
        assert ("mcp__notes__lookup" in log) == (name == "notes"), name
    # The workspace CLAUDE.md is part of the seeded base: not the agent's work.
    house = recs["house"]
    assert (run_dir / "cells" / house["cell_id"] / "workspace" / "CLAUDE.md").read_text() == (
        ARMS / "memory" / "CLAUDE.md"
    ).read_text()
    for key in ("files", "total_loc", "src_loc"):
        assert house[key] == recs["baseline"][key], key
    seeded = json.loads((run_dir / "cells" / house["cell_id"] / "seeded.json").read_text())
    assert "CLAUDE.md" in seeded
