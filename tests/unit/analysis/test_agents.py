"""The agent axis (`--agents`): a bad agent or an arm an agent has no equivalent for is one clear
error before any cell; the cell ids name the agent only when the grid is not of claude alone
(so a claude run keeps its ids and grid hash); every figure is per (model, agent), and one arm's
effect is put side by side across agents. Plans through pytester; records as plain dicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from pytest_ponybench.analysis import agents as agents_mod
from pytest_ponybench.analysis import stats
from pytest_ponybench.core.records import Record
from pytest_ponybench.core.runs import Runs
from pytest_ponybench.core.shards import GridSpec
from tests.support import REPO, one_task_project, write

TASK = "merge_intervals"


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    return one_task_project(pytester.path, TASK, claude_line="printf '2.1.0 (Claude Code)\\n'")


def refused(pytester: pytest.Pytester, *args: str) -> str:
    result = pytester.runpytest("benchmarks", "--claude", "./claude", *args)
    out = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "Traceback" not in out, out
    assert not (pytester.path / "runs").exists()  # nothing was run, no run dir claimed
    return out


def test_an_unknown_agent_is_refused_naming_those_known(pytester: pytest.Pytester, project: Path) -> None:
    out = refused(pytester, "--agents", "claude,cursor")
    assert "--agents: unknown agent 'cursor' (known: claude, " in out and "copilot" in out


@pytest.mark.parametrize(
    ("agent", "spec", "words"),
    [
        (
            "copilot",
            'cfg=settings:{"model": "x"}',
            "arm 'cfg' (settings): a settings part is Claude Code's own",
        ),
        ("opencode", "style=output-style:arms/style.md", "arm 'style' (output-style)"),
        (
            "opencode",
            f"careful=plugin:{REPO / 'examples' / 'careful-plugin'}",
            "arm 'careful' (plugin): plugin careful brings hooks, which OpenCode",
        ),
    ],
)
def test_an_arm_an_agent_cannot_run_is_refused_naming_its_kind_and_the_agent(
    pytester: pytest.Pytester, project: Path, agent: str, spec: str, words: str
) -> None:
    write(project / "arms" / "style.md", "---\nname: terse\n---\nBe terse.\n")
    out = refused(pytester, "--agents", f"claude,{agent}", "--arm", spec)
    assert f"--agents {agent}: {words}" in out, out
    assert "nothing was run" in out


def test_codex_is_refused_a_live_model_and_an_mcp_arm(pytester: pytest.Pytester, project: Path) -> None:
    out = refused(pytester, "--agents", "claude,codex", "--models", "offline-reference,sonnet", "--dry-run")
    assert "--agents codex: the live model sonnet cannot be reached: codex speaks the OpenAI Responses" in out
    write(
        project / "mcp" / "mcp.json", '{"mcpServers": {"n": {"command": "python3", "args": ["-c", "pass"]}}}'
    )
    out = refused(pytester, "--agents", "codex", "--arm", "n=mcp:mcp/mcp.json")
    assert (
        "--agents codex: arm 'n' (mcp): Codex offers an MCP server's tools only behind its tool search" in out
    )


def test_a_task_policy_of_claude_s_tools_is_refused_for_another_agent(
    pytester: pytest.Pytester, project: Path
) -> None:
    toml = project / "benchmarks" / "tasks" / TASK / "task.toml"
    toml.write_text(toml.read_text() + 'disallowed_tools = ["Glob"]\n')
    out = refused(pytester, "--agents", "copilot")
    assert f"--agents copilot: task {TASK} ({toml}): disallowed_tools name Claude Code's tools" in out


def collected(pytester: pytest.Pytester, *args: str) -> list[str]:
    result = pytester.runpytest("benchmarks", "--claude", "./claude", "--collect-only", "-q", *args)
    assert result.ret == pytest.ExitCode.OK, result.stdout.str() + result.stderr.str()
    return [line.split("[", 1)[1].rstrip("]") for line in result.stdout.lines if "::" in line]


def test_the_cell_ids_name_the_agent_only_beside_another(pytester: pytest.Pytester, project: Path) -> None:
    assert collected(pytester) == [f"{TASK}-baseline-offline-reference-r0"]
    ids = collected(pytester, "--agents", "claude,copilot,opencode", "--models", "offline-reference")
    assert ids == [f"{TASK}-baseline-offline-reference-{a}-r0" for a in ("claude", "copilot", "opencode")]
    # Each agent is a marker: -m picks one agent's cells.
    only = collected(pytester, "--agents", "claude,copilot", "-m", "agent_copilot")
    assert only == [f"{TASK}-baseline-offline-reference-copilot-r0"]


def test_a_grid_of_claude_alone_keeps_its_hash_and_blocks() -> None:
    before = GridSpec({"t": "h"}, {"baseline": "b"}, ("sonnet",), Runs(2))
    assert GridSpec({"t": "h"}, {"baseline": "b"}, ("sonnet",), Runs(2), ("claude",)).hash == before.hash
    several = GridSpec({"t": "h"}, {"baseline": "b"}, ("sonnet",), Runs(2), ("claude", "copilot"))
    assert several.hash != before.hash
    assert before.cell_ids() == ["t-baseline-sonnet-r0", "t-baseline-sonnet-r1"]
    assert several.cell_ids()[:2] == ["t-baseline-sonnet-claude-r0", "t-baseline-sonnet-copilot-r0"]


def rec(agent: str | None, arm: str, task: str, passed: bool, **more: Any) -> Record:
    out: dict[str, Any] = {
        "task": task,
        "arm": arm,
        "model": "offline-coin",
        "run": 0,
        "valid": True,
        "correct": passed,
        "safe": True,
        "arm_hash": arm,
        **more,
    }
    if agent is not None:
        out["agent"] = agent
    return cast(Record, out)


def test_records_of_claude_alone_are_read_as_they_are() -> None:
    plain = [rec(None, "baseline", "t1", True), rec("claude", "careful", "t1", True)]
    assert agents_mod.by_agent(plain) == plain


def test_each_agent_is_its_own_column_and_the_same_arm_is_compared_across_agents() -> None:
    tasks = [f"t{i}" for i in range(8)]
    records = []
    for agent, helps in (("claude", True), ("copilot", False)):
        for i, task in enumerate(tasks):
            records.append(rec(agent, "baseline", task, i % 2 == 0))
            records.append(rec(agent, "careful", task, True if helps else i % 2 == 0))
    named = agents_mod.by_agent(records)
    assert {r["model"] for r in named} == {"offline-coin on claude", "offline-coin on copilot"}
    assert {r.get("agent_model") for r in named} == {"offline-coin"}
    rows = stats.verdicts(named, baseline="baseline")
    assert sorted(r["model"] for r in rows) == ["offline-coin on claude", "offline-coin on copilot"]
    cross = agents_mod.cross_agent(rows)
    assert [(c.model, c.arm, c.agent) for c in cross] == [
        ("offline-coin", "careful", "claude"),
        ("offline-coin", "careful", "copilot"),
    ]
    by = {c.agent: c.effect for c in cross}
    assert by["claude"] is not None and by["claude"].estimate == pytest.approx(50.0)
    assert by["copilot"] is not None and by["copilot"].estimate == pytest.approx(0.0)
    text = agents_mod.render_cross_agent(rows)
    assert text.startswith("the same arm across agents (pass, each agent's arm vs that agent's baseline):")
    assert "careful  offline-coin  copilot" in text and "+50.0 pp" in text
    markdown = agents_mod.render_cross_agent_markdown(rows)
    assert markdown.splitlines()[0] == "| arm | model | agent | change | 95% interval | verdict | tasks |"


def test_no_cross_agent_table_for_one_agent() -> None:
    records = [rec("copilot", arm, f"t{i}", True) for i in range(3) for arm in ("baseline", "careful")]
    rows = stats.verdicts(agents_mod.by_agent(records), baseline="baseline")
    assert rows and agents_mod.cross_agent(rows) == [] and agents_mod.render_cross_agent(rows) == ""


def test_run_json_of_several_agents_says_so(pytester: pytest.Pytester, project: Path) -> None:
    from pytest_ponybench.roles import planner as plan_mod
    from pytest_ponybench.roles import settings as cfg

    config = pytester.parseconfig("benchmarks", "--claude", "./claude", "--agents", "claude,copilot")
    requested = cfg.requested_mode(config)
    assert requested is not None
    plan = plan_mod.resolve(config, *requested)
    info = json.loads(
        json.dumps(plan.provenance("2.1.0", {"claude": "2.1.0", "copilot": "1.0.102"}).to_json())
    )
    assert info["options"]["agents"] == ["claude", "copilot"]
    assert info["agent_versions"] == {"claude": "2.1.0", "copilot": "1.0.102"}
    assert len(info["grid"]) == 2 and all(c.endswith(("-claude-r0", "-copilot-r0")) for c in info["grid"])
