"""Other agent CLIs: OpenCode, Copilot CLI and Codex run a task through their own tools, confined
as claude is, every request through the gateway, offline (Codex through its Responses route).

Each cell here is `session.run.run_cell` with the agent's adapter, as the runner calls it: the
offline agents speak each CLI's tool dialect (write/edit, create/edit), the scorer decides, the
gateway's meter is the figure (Copilot's stream has no token counts at all), and what a session
cannot do is a reason on its record, never a quiet exit 0."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.agents import registry
from pytest_ponybench.core.arms import Arm, parse_spec
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.records import Record
from pytest_ponybench.core.tasks import Task, load_task, load_tasks
from pytest_ponybench.gateway.routes import Routes
from pytest_ponybench.gateway.server import shared
from pytest_ponybench.offline.endpoint import OfflineEndpoint
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.plan import preflight
from pytest_ponybench.session.run import CellContext, run_cell
from pytest_ponybench.store.celldir import CellDir
from pytest_ponybench.store.results import RunDir
from tests.support import ARM_FILES, NOTES_MCP, REPO, confined_or_skip, records, run_dirs, write

CAREFUL = REPO / "examples" / "careful-plugin"
AGENTS = [
    pytest.param("opencode", marks=pytest.mark.needs_opencode),
    pytest.param("copilot", marks=pytest.mark.needs_copilot),
]
WRITE_TOOL = {"opencode": "write", "copilot": "create"}
# Eight tasks of four runs: about 90% power for the +40 points the coin is told (six of three: 60%).
AB_TASKS = [
    *("sql_lookup", "merge_intervals", "parse_duration", "reset_token"),
    *("open_redirect", "luhn_check", "roman_numerals", "semver_compare"),
]


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


# ---------------------------------------------------------------- the pre-flight, per agent

PLUGINS = REPO / "tests" / "plugins"


def activation(agent: str, spec: str, server: OfflineServer, root: Path = REPO) -> dict[str, Any]:
    arm = parse_spec(spec, root, "--arm")
    binary = shutil.which(registry.get(agent).binary)
    assert binary is not None
    return preflight.activation_check(arm, binary, Routes(shared(), OfflineEndpoint(server)), agent=agent)


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize(
    ("spec", "proof"),
    [
        (f"notes=mcp:{NOTES_MCP / 'mcp.json'}", "mcp_tools"),
        (f"sk=skills:{ARM_FILES / 'skills'}", "skills_listed"),
        (f"md=claude-md:{ARM_FILES / 'memory' / 'CLAUDE.md'}", "claude_md_in_request"),
        (f"mdu=claude-md:{ARM_FILES / 'memory' / 'CLAUDE.md'}@user", "claude_md_in_request"),
        ("terse=prompt:PONY-PROMPT-MARKER answer in one line.", "prompt_in_request"),
        (f"so=plugin:{PLUGINS / 'skill-only'}", "plugins"),
    ],
)
def test_each_arm_kind_is_proven_through_each_clis_own_session(
    agent: str, spec: str, proof: str, server: OfflineServer
) -> None:
    confined_or_skip()
    result = activation(agent, spec, server)
    assert result["ok"] and result["agent"] == agent, result
    evidence = result["evidence"]
    assert proof in evidence, evidence
    if proof == "mcp_tools":
        prefix = {"opencode": "notes_", "copilot": "notes-"}[agent]
        assert evidence["mcp_tools"]["notes"] and all(
            t.startswith(prefix) for t in evidence["mcp_tools"]["notes"]
        )
    if proof == "plugins" and agent == "opencode":
        assert evidence["skills_in_request"] == ["skill-only:frontend-design"]
    if proof == "plugins" and agent == "copilot":
        assert evidence["registered"]["skills"] == ["skill-only:frontend-design"]


@pytest.mark.needs_copilot
def test_copilots_proof_of_a_plugin_is_its_skill_and_its_hooks_context_at_the_model(
    server: OfflineServer,
) -> None:
    result = activation("copilot", f"careful=plugin:{CAREFUL}", server)
    assert result["ok"], result
    evidence = result["evidence"]
    assert evidence["hook_context_reached"] is True and evidence["hook_events"] == ["SessionStart"]
    assert evidence["registered"]["skills"] == ["careful:careful-review"]


@pytest.mark.needs_copilot
def test_a_hook_whose_context_copilot_does_not_give_its_model_is_refused(server: OfflineServer) -> None:
    """json-context answers with hookSpecificOutput alone, which Claude Code gives its model and
    Copilot CLI does not: the same plugin passes claude's pre-flight and fails Copilot's."""
    result = activation("copilot", f"jc=plugin:{PLUGINS / 'json-context'}", server)
    assert not result["ok"]
    assert result["problems"] == ["its SessionStart hook printed nothing the model could see"], result


@pytest.mark.parametrize("agent", AGENTS)
def test_an_mcp_server_that_does_not_start_is_refused(
    agent: str, server: OfflineServer, tmp_path: Path
) -> None:
    config = write(
        tmp_path / "dead" / "mcp.json",
        json.dumps({"mcpServers": {"dead": {"command": "python3", "args": ["-c", "raise SystemExit(3)"]}}}),
    )
    result = activation(agent, f"dead=mcp:{config}", server, tmp_path)
    assert not result["ok"], result
    assert result["problems"][0].startswith("its MCP server 'dead' "), result


# ---------------------------------------------------------------- the grid, per agent

QUICK = ["merge_intervals", "cart_bogo", "sql_lookup"]


@pytest.mark.needs_claude
@pytest.mark.needs_opencode
@pytest.mark.needs_copilot
def test_the_offline_grid_through_every_agent_passes_the_references_and_fails_the_flawed(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=QUICK)
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-reference,offline-flawed",
        "--agents",
        "claude,opencode,copilot",
        "-p",
        "no:cacheprovider",
    )
    out = result.stdout.str()
    assert result.ret == pytest.ExitCode.OK, out[-3000:]
    result.assert_outcomes(passed=9, xfailed=9)
    run_dir = run_dirs(root)[0]
    recs = records(run_dir)
    tasks = {t.id: t for t in load_tasks(root / "benchmarks" / "tasks", root / "fixtures")}
    assert sorted({(r["agent"], r["model"]) for r in recs}) == sorted(
        (a, m) for a in ("claude", "copilot", "opencode") for m in ("offline-flawed", "offline-reference")
    )
    for rec in recs:
        where = f"{rec['cell_id']}: {rec.get('error')} {rec.get('reason')}"
        assert rec["valid"] and rec["confined"], where
        assert rec["cell_id"].endswith(f"-{rec['agent']}-r0"), where
        assert (rec["input_tokens"] or 0) > 0 and (rec["cost_usd"] or 0) > 0 and rec["meter_mismatch"] is None
        assert (rec["claude_cpu_s"] or 0) > 0.1, where  # the CLI's own CPU reaches the harness
        if rec["model"] == "offline-reference":
            assert rec["correct"] and rec["safe"], where
        else:
            assert rec[tasks[rec["task"]].axis] is False, where
    # Every table per model and agent; run.json says which agents and their versions.
    for label in (
        "offline-reference on copilot",
        "offline-flawed on opencode",
        "offline-reference on claude",
    ):
        assert f"ALL TASKS ({label})" in out
    run = json.loads((run_dir / "run.json").read_text())
    assert run["options"]["agents"] == ["claude", "opencode", "copilot"]
    assert set(run["agent_versions"]) == {"claude", "opencode", "copilot"}
    assert run["agent_versions"]["opencode"] == "1.18.33"
    assert len(run["grid"]) == 18 and run["finished"]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert {m["model"] for m in summary["models"]} >= {
        "offline-reference on opencode",
        "offline-flawed on copilot",
    }


@pytest.mark.needs_claude
@pytest.mark.needs_copilot
def test_the_example_plugins_offline_ab_decides_on_claude_and_on_copilot(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    """offline-coin: the careful plugin's hook tells the model good=0.9 (the baseline draws at
    0.5); the hook answers in JSON both CLIs give their model, so both find the effect."""
    root = bench_project(tasks=AB_TASKS)
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-coin",
        "--agents",
        "claude,copilot",
        "--runs",
        "4",
        "--arm",
        f"careful=plugin:{CAREFUL}",
        "-p",
        "no:cacheprovider",
    )
    out = result.stdout.str()
    for agent in ("claude", "copilot"):
        block = out.split(f"careful vs baseline (offline-coin on {agent})", 1)[1]
        m = re.search(r"^  pass +([+-]\d+\.\d) pp +\[([+-]\d+\.\d), ([+-]\d+\.\d)\] pp +(\w+)", block, re.M)
        assert m is not None, out
        assert m[4] == "better" and float(m[2]) <= 40.0 <= float(m[3]), out
    assert "the same arm across agents (pass, each agent's arm vs that agent's baseline):" in out
    assert re.search(r"^  careful +offline-coin +copilot +\+\d+\.\d pp .* better", out, re.M), out
    recs = records(run_dirs(root)[0])
    assert len(recs) == 2 * 2 * 4 * len(AB_TASKS) and all(r["valid"] for r in recs)
    for rec in recs:
        used = ["careful:careful-review"] if rec["arm"] == "careful" else []
        assert rec["skills_used"] == used, rec["cell_id"]


# ---------------------------------------------------------------- Codex, through the Responses route


@pytest.mark.needs_codex
def test_codex_runs_offline_end_to_end_through_the_responses_route(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    """The real codex CLI against the offline server's Responses route, through the gateway:
    the scripted agents patch with its freeform apply_patch (a new file added, a seeded one
    updated), the gateway meters every request, the references pass and the flawed fail."""
    root = bench_project(tasks=["merge_intervals", "cart_bogo"])
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-reference,offline-flawed",
        "--agents",
        "codex",
        "-p",
        "no:cacheprovider",
    )
    out = result.stdout.str()
    assert result.ret == pytest.ExitCode.OK, out[-3000:]
    result.assert_outcomes(passed=2, xfailed=2)
    run_dir = run_dirs(root)[0]
    recs = records(run_dir)
    assert len(recs) == 4 and {r["agent"] for r in recs} == {"codex"}
    for rec in recs:
        where = f"{rec['cell_id']}: {rec.get('error')} {rec.get('reason')}"
        assert rec["valid"] and rec["confined"] and rec["cell_id"].endswith("-codex-r0"), where
        patches = rec["tool_uses"].get("apply_patch", 0)
        assert set(rec["tool_uses"]) == {"apply_patch"} and patches >= 1, where  # a patch a file
        assert rec["spend"]["main"]["requests"] == patches + 1 and (rec["cost_usd"] or 0) > 0, where
        assert rec["meter_mismatch"] is None, where  # its own counts agree with the gateway's
        assert rec["correct"] is (rec["model"] == "offline-reference"), where
        gateway = (run_dir / "cells" / rec["cell_id"] / "gateway.jsonl").read_text()
        assert '"apply_patch"' in gateway and "*** Begin Patch" in gateway
    assert "ALL TASKS (offline-reference on codex)" in out


@pytest.mark.needs_codex
def test_codex_proves_a_prompt_and_a_skill_through_its_session(server: OfflineServer) -> None:
    for spec, proof in (
        ("terse=prompt:PONY-PROMPT-MARKER answer in one line.", "prompt_in_request"),
        (f"sk=skills:{ARM_FILES / 'skills'}", "skills_listed"),
        (f"md=claude-md:{ARM_FILES / 'memory' / 'CLAUDE.md'}", "claude_md_in_request"),
    ):
        result = activation("codex", spec, server)
        assert result["ok"] and proof in result["evidence"], result
