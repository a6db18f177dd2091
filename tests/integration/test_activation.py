"""The arm activation check speaks the hook protocol the CLI speaks, on real-world plugin shapes.

tests/plugins/ holds plugins shaped like those of the official marketplace: a SessionStart hook
answering in JSON with additionalContext (explanatory-output-style), one answering
asynchronously with hooks on other events too (security-guidance), an agent only
(code-simplifier), a skill only (frontend-design), a command, hooks on PreToolUse only; and the
broken ones: a hook that prints nothing, one whose JSON gives the model nothing, one that fails
after printing, one whose script crashes (node, a module not there). Each runs through the real
CLI against the offline server.

The other arm kinds too: an MCP config (its server confined with the agent), a CLAUDE.md in the
workspace or the user's memory, a skills folder, subagents, an output style, and arms composed of
several parts. A part the session does not show is refused by the pre-flight, naming the part."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import Arm, parse_spec
from pytest_ponybench.gateway.routes import Routes
from pytest_ponybench.gateway.server import shared
from pytest_ponybench.offline.endpoint import OfflineEndpoint
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.plan import preflight
from tests.support import CLAUDE, NOTES_MCP, REPO, arm_project, confined_or_skip, write

pytestmark = pytest.mark.needs_claude

PLUGINS = REPO / "tests" / "plugins"


@pytest.fixture(scope="module")
def server() -> Iterator[OfflineServer]:
    with OfflineServer() as srv:
        yield srv


def routes(server: OfflineServer) -> Routes:
    """The probe sessions through this process's gateway, the offline server behind it."""
    return Routes(shared(), OfflineEndpoint(server))


def check(name: str, server: OfflineServer) -> dict[str, object]:
    arm = Arm(name, (Part("plugin", path=PLUGINS / name),))
    return preflight.activation_check(arm, "claude", routes(server))


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: the checks run one at a time")
def test_the_arms_are_checked_at_once_and_said_in_their_order(server: OfflineServer) -> None:
    """An offline run's first cell waits for the last check: the arms' checks run at once (one
    per core), and the results and lines come back in the arms' order whatever ends first."""
    names = ["json-context", "async-hook"]
    arms = [Arm("baseline"), *(Arm(n, (Part("plugin", path=PLUGINS / n),)) for n in names)]
    asked: list[str] = []

    def ask() -> Routes:
        asked.append(threading.current_thread().name)
        return routes(server)

    started = time.monotonic()
    results, lines = preflight.activation_lines(arms, [("claude", "claude")], ask, baseline=False)
    took = time.monotonic() - started
    assert [r["arm"] for r in results] == names and all(r["ok"] for r in results), results
    assert lines[0] == "arm baseline: ok (nothing to load)", lines
    assert [ln.split(":")[0] for ln in lines[1:]] == [f"arm {n}" for n in names], lines
    # Asked by the caller, once per check, before any thread (asking may start the server).
    assert asked == [threading.current_thread().name] * 2, asked
    # One after the other, the whole takes at least the sum of the checks' times (each rounded
    # to a millisecond); at once, less.
    assert took + 0.01 < sum(r["wall_s"] for r in results), (took, [r["wall_s"] for r in results])


@pytest.mark.parametrize(
    ("plugin", "proof"),
    [
        ("json-context", "hook_context_reached"),
        ("async-hook", "async_hook"),
    ],
)
def test_hooks_that_answer_in_json_or_asynchronously_pass(
    plugin: str, proof: str, server: OfflineServer
) -> None:
    started = time.monotonic()
    result = check(plugin, server)
    took = time.monotonic() - started
    assert result["ok"], result
    evidence = result["evidence"]
    assert isinstance(evidence, dict) and evidence[proof] is True, evidence
    assert plugin in evidence["plugins"]
    # What the check took, its session and folders included: what an offline run pays per arm.
    assert isinstance(result["wall_s"], float), result
    assert 0 < result["wall_s"] <= took + 0.0005, (result["wall_s"], took)  # rounded to a millisecond


@pytest.mark.parametrize(
    ("plugin", "kind", "name"),
    [
        ("agent-only", "agents", "agent-only:code-simplifier"),
        ("skill-only", "skills", "skill-only:frontend-design"),
        ("command-only", "commands", "command-only:review-diff"),
    ],
)
def test_a_plugin_without_hooks_is_proven_registered(
    plugin: str, kind: str, name: str, server: OfflineServer
) -> None:
    result = check(plugin, server)
    assert result["ok"], result
    evidence = result["evidence"]
    assert isinstance(evidence, dict) and name in evidence["registered"][kind], evidence


def test_hooks_on_other_events_only_pass(server: OfflineServer) -> None:
    result = check("pretool-only", server)
    assert result["ok"], result
    assert result["evidence"]["hook_events"] == ["PreToolUse"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("plugin", "problem"),
    [
        ("silent-hook", "its SessionStart hook printed nothing the model could see"),
        (
            "swallowed-hook",
            'its SessionStart hook answered \'{"suppressOutput": true, "continue": true}\', which '
            "gives the model nothing (no additionalContext)",
        ),
    ],
)
def test_a_hook_whose_output_never_reaches_the_model_is_refused(
    plugin: str, problem: str, server: OfflineServer
) -> None:
    result = check(plugin, server)
    assert not result["ok"]
    assert result["problems"] == [problem]


def test_a_crashing_hook_is_quoted_by_its_ends_and_its_error(server: OfflineServer) -> None:
    """node's crash begins with where it was thrown and ends with its version; what failed is
    a line between, which the problem keeps (it was once cut four letters before it). It is a
    crash, said as one: never its stderr read as output that "never reached the model"."""
    result = check("crashing-hook", server)
    assert not result["ok"]
    problems = result["problems"]
    assert isinstance(problems, list) and len(problems) == 1, problems
    problem = str(problems[0])
    assert problem.startswith("hook SessionStart exited 1: node:internal/modules/cjs/loader:"), problem
    assert " … Error: Cannot find module '" in problem and "hooks/session-start.js'" in problem, problem
    assert " … Node.js v" in problem, problem
    assert result["evidence"]["hook_outputs"] == []  # type: ignore[index]


def test_a_hook_that_prints_and_then_fails_is_a_crash(server: OfflineServer) -> None:
    """The CLI gives the model nothing of a hook that exited 1, whatever it printed: the
    problem is the exit, with what it printed."""
    result = check("failing-hook", server)
    assert result["problems"] == [
        "hook SessionStart exited 1: Follow the house style guide. PONYBENCH-LOST-7731"
    ]


def test_a_skill_the_cli_did_not_register_is_refused(tmp_path: Path, server: OfflineServer) -> None:
    # A SKILL.md without front matter: the CLI does not register it, and the check says so.
    plugin = tmp_path / "misplaced"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "misplaced", "version": "1.0.0"}')
    (plugin / "skills" / "review").mkdir(parents=True)
    (plugin / "skills" / "review" / "SKILL.md").write_text("no front matter, so no description\n")
    result = preflight.activation_check(Arm("m", (Part("plugin", path=plugin),)), "claude", routes(server))
    registered = result["evidence"]["registered"]["skills"]
    if "misplaced:review" in registered:
        pytest.skip("this CLI registers a skill without front matter")
    assert result["problems"] == [
        "its skill 'misplaced:review' is not registered in the session (registered: none)"
    ]


def test_preflight_runs_json_and_async_plugins_through_the_plugin(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-reference",
        "--preflight",
        "--arm",
        f"explain=plugin:{PLUGINS / 'json-context'}",
        "--arm",
        f"guard=plugin:{PLUGINS / 'async-hook'}",
    )
    result.assert_outcomes(passed=3)
    assert (root / "runs").is_dir()


def test_a_passed_check_is_said_again_until_what_it_depends_on_changes(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    """An offline run keeps each passed check in pytest's cache; the next run (or dry run) with
    nothing changed says it again instead of running the session, and run.json says so. A
    failed check is never kept, an edited plugin is checked afresh, and without the cache
    plugin (or with --cache-clear) every arm is checked."""
    root = bench_project(tasks=["sql_lookup"])
    good = root / "good-plugin"
    shutil.copytree(PLUGINS / "json-context", good)
    arms = ["--arm", f"guard=plugin:{good}", "--arm", f"broken=plugin:{PLUGINS / 'crashing-hook'}"]
    grid = ["benchmarks", "--models", "offline-reference", "--runs", "1", *arms]
    kept = " nothing it depends on changed since)"

    def lines(result: pytest.RunResult) -> dict[str, str]:
        found = {}
        for line in result.outlines:
            for arm in ("guard", "broken"):
                if f"pre-flight: arm {arm}" in line:
                    found[arm] = line
        assert set(found) == {"guard", "broken"}, result.outlines
        return found

    first = pytester.runpytest_subprocess(*grid, "-k", "guard")
    first.assert_outcomes(passed=1)
    said = lines(first)
    assert said["guard"].endswith("(hooks SessionStart)"), said
    assert "exited 1" in said["broken"]
    assert (root / ".pytest_cache" / "v" / "ponybench" / "activation").is_file()

    again = pytester.runpytest_subprocess(*grid, "-k", "guard")
    again.assert_outcomes(passed=1)
    said = lines(again)
    assert said["guard"].endswith(kept) and "(checked 2" in said["guard"], said
    assert "exited 1" in said["broken"] and kept not in said["broken"], "a failed check is run again"
    run = max((p for p in (root / "runs").iterdir() if p.is_dir()), key=lambda p: p.name)
    arms_checked = json.loads((run / "run.json").read_text())["preflight"]["arms"]
    guard = next(a for a in arms_checked if a["arm"] == "guard")
    assert guard["ok"] and guard["wall_s"] == 0.0 and guard["reused"].startswith("20"), guard
    broken = next(a for a in arms_checked if a["arm"] == "broken")
    assert "reused" not in broken and broken["wall_s"] > 0, broken

    def dry(*more: str) -> str:
        return lines(pytester.runpytest_subprocess(*grid, "--dry-run", *more))["guard"]

    assert dry().endswith(kept)
    assert dry("-p", "no:cacheprovider").endswith("(hooks SessionStart)")
    (good / "hooks" / "extra.txt").write_text("an edit\n")
    assert dry().endswith("(hooks SessionStart)"), "an edited plugin is checked afresh"
    (good / "hooks" / "extra.txt").unlink()
    assert dry().endswith(kept), "the plugin as it was checked"
    assert dry("--cache-clear").endswith("(hooks SessionStart)")


# --- every other arm kind, alone and composed ---------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return arm_project(tmp_path / "project")


def check_spec(spec: str, root: Path, server: OfflineServer) -> dict[str, Any]:
    return preflight.activation_check(parse_spec(spec, root), CLAUDE or "claude", routes(server))


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
    result = check_spec(spec, project, server)
    assert result["ok"], result
    assert result["evidence"] == evidence


def test_a_composed_arm_is_proven_part_by_part(project: Path, server: OfflineServer) -> None:
    result = check_spec(
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
    result = preflight.activation_check(Arm("broken", parts), CLAUDE or "claude", routes(server))
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
    result = check_spec("dead=mcp:dead/mcp.json", project, server)
    assert not result["ok"]
    assert result["problems"][0].startswith("its MCP server 'dead' did not connect (status failed)")


def test_an_mcp_server_sees_its_own_folder_and_nothing_else_of_the_host(
    project: Path, server: OfflineServer
) -> None:
    confined_or_skip()
    # Its config names a server outside the config's folder: unconfined it would start; in the
    # cell that file does not exist, so the server never connects and the arm is refused.
    write(
        project / "elsewhere" / "mcp.json",
        json.dumps({"mcpServers": {"far": {"command": "python3", "args": [str(NOTES_MCP / "server.py")]}}}),
    )
    result = check_spec("far=mcp:elsewhere/mcp.json", project, server)
    assert result["problems"] == [
        "its MCP server 'far' did not connect (status failed); in the cell it can read only its "
        "config's folder and the system"
    ]
