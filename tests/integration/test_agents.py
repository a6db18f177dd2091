"""Other agent CLIs, one cell at a time: OpenCode and Copilot CLI run a task through their own
tools, confined as claude is, every request through the gateway, offline.

Each cell here is `session.run.run_cell` with the agent's adapter, as the runner calls it: the
offline agents speak each CLI's tool dialect (write/edit, create/edit), the scorer decides, the
gateway's meter is the figure (Copilot's stream has no token counts at all), and what a session
cannot do is a reason on its record, never a quiet exit 0."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_ponybench.agents import registry
from pytest_ponybench.core.arms import Arm, parse_spec
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.records import Record
from pytest_ponybench.core.tasks import Task, load_task, load_tasks
from pytest_ponybench.offline.endpoint import OfflineEndpoint
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.session.run import CellContext, run_cell
from pytest_ponybench.store.celldir import CellDir
from pytest_ponybench.store.results import RunDir
from tests.support import REPO, confined_or_skip, write

CAREFUL = REPO / "examples" / "careful-plugin"
AGENTS = [
    pytest.param("opencode", marks=pytest.mark.needs_opencode),
    pytest.param("copilot", marks=pytest.mark.needs_copilot),
]
WRITE_TOOL = {"opencode": "write", "copilot": "create"}


@pytest.fixture(scope="module")
def server() -> Iterator[OfflineServer]:
    with OfflineServer() as srv:
        yield srv


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in load_tasks(REPO / "benchmarks" / "tasks", REPO / "fixtures")}


def cell(
    agent: str, task: Task, model: str, server: OfflineServer, out: Path, arm: Arm | None = None
) -> tuple[Record, CellDir]:
    """One cell of the agent, as the runner runs it; its record and its folder."""
    adapter = registry.get(agent)
    ctx = CellContext(
        run_dir=RunDir(out),
        claude=adapter.binary,
        cell_timeout=240,
        max_turns=30,
        endpoint=OfflineEndpoint(server),
        agent=adapter,
    )
    the_cell = Cell(task, arm or Arm("baseline"), model, 0)
    rec = run_cell(the_cell, ctx)
    return rec, RunDir(out).cell_dir(the_cell.id)


@pytest.mark.parametrize("agent", AGENTS)
def test_the_reference_is_written_through_the_clis_own_tools_confined_and_metered(
    agent: str, server: OfflineServer, tasks: dict[str, Task], tmp_path: Path
) -> None:
    confined_or_skip()
    rec, folder = cell(agent, tasks["merge_intervals"], "offline-reference", server, tmp_path)
    where = f"{rec.get('error')} {rec.get('reason')}"
    assert rec["valid"] and rec["correct"] and rec["safe"], where
    assert rec["confined"] is True and rec["confinement"]["network"] == "gateway only"
    assert rec["tool_uses"] == {WRITE_TOOL[agent]: 1}, rec["tool_uses"]
    # Tokens and dollars are the gateway's: every request of the session, none of it side spend.
    spend = rec["spend"]
    assert set(spend) == {"main"} and spend["main"]["requests"] == rec["turns"] == 2, spend
    assert (rec["input_tokens"] or 0) > 0 and (rec["cache_write_tokens"] or 0) > 0
    assert (rec["cost_usd"] or 0) > 0
    assert rec["meter_mismatch"] is None  # OpenCode's own counts agree; Copilot reports none
    if agent == "copilot":
        assert rec["cli_cost_usd"] is None
    assert (folder.path / registry.get(agent).stream_file).is_file()
    # Nothing of the CLI's own lands in the workspace: the one file the task asks for.
    kept = sorted(
        p.relative_to(folder.workspace).as_posix()
        for p in folder.workspace.rglob("*")
        if ".git" not in p.parts
    )
    assert kept == ["intervals.py"], kept
    # Every request went to the gateway, and the gateway saw the CLI's own tools.
    lines = [json.loads(x) for x in folder.gateway.read_text().splitlines()]
    assert len(lines) == 2 and all(line["status"] == 200 for line in lines)
    assert WRITE_TOOL[agent] in lines[0]["request"]["tools"]


@pytest.mark.parametrize("agent", AGENTS)
def test_the_flawed_edit_of_a_seeded_file_fails_on_its_axis(
    agent: str, server: OfflineServer, tasks: dict[str, Task], tmp_path: Path
) -> None:
    """A fixture task: the bad reference replaces a file the fixture seeded, which Copilot's
    create refuses; its offline agent edits the whole content instead."""
    rec, _ = cell(agent, tasks["cart_bogo"], "offline-flawed", server, tmp_path)
    assert rec["valid"], rec.get("error")
    assert rec["correct"] is False and rec["safe"] is True, rec.get("reason")
    assert "create" not in rec["tool_uses"] and rec["tool_uses"].get("edit") == 1, rec["tool_uses"]


@pytest.mark.needs_claude
def test_a_session_offered_no_tool_to_write_with_is_invalid_with_the_tools_named(
    server: OfflineServer, tmp_path: Path
) -> None:
    """The scripted agent cannot write through tools it does not know: the session ends on an
    API error that names what was offered, never as a quiet exit 0 with nothing written."""
    folder = tmp_path / "tasks" / "read_only"
    write(
        folder / "task.toml", 'kind = "surgical"\nfile = "a.py"\naxis = "correct"\nallowed_tools = ["Read"]\n'
    )
    write(folder / "prompt.md", "Write a.py.\n")
    write(folder / "good" / "a.py", "A = 1\n")
    write(folder / "bad" / "a.py", "A = 2\n")
    write(folder / "checks" / "test_correct.py", "from a import A\n\n\ndef test_a():\n    assert A == 1\n")
    task = load_task(folder, tmp_path / "fixtures")
    rec, _ = cell("claude", task, "offline-reference", server, tmp_path / "out")
    assert rec["valid"] is False and rec["error_kind"] == "api", rec
    assert "no tool to write a.py with; the request offers Read " in str(rec["error"]), rec["error"]


@pytest.mark.needs_copilot
def test_copilot_loads_the_claude_plugin_unchanged_its_skill_used_its_hook_context_reached(
    server: OfflineServer, tasks: dict[str, Task], tmp_path: Path
) -> None:
    arm = parse_spec(f"careful=plugin:{CAREFUL}", REPO, "--arm")
    rec, folder = cell("copilot", tasks["merge_intervals"], "offline-coin", server, tmp_path, arm)
    assert rec["valid"], rec.get("error")
    assert rec["skills_available"] == rec["skills_used"] == ["careful:careful-review"], rec
    assert rec["plugins"] == ["careful"]
    # The hook's top-level additionalContext reached the model: the coin's directive is there.
    assert "ponybench-offline: good=0.9" in folder.gateway.read_text()
