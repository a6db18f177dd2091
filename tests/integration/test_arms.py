"""Arms reach the model: a plugin's SessionStart hook output and an appended prompt, proven by
the offline server's request log; every other kind (an MCP server called from a confined cell, a
CLAUDE.md read, skills, agents, an output style) in cells through the plugin; a task's agent
policy applied to its cells under every arm; broken arms stop the session before any cell runs."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.agents.install import sealed
from pytest_ponybench.core.arms import parse_spec
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.tasks import load_task
from pytest_ponybench.offline.endpoint import OfflineEndpoint
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.session.run import CellContext, run_cell
from pytest_ponybench.store.results import RunDir
from tests.support import (
    ARM_FILES,
    CLAUDE,
    HOOK_MARKER,
    REPO,
    arm_project,
    confined_or_skip,
    make_plugin,
    records,
    run_dirs,
    write,
)

pytestmark = pytest.mark.needs_claude

PROMPT_MARKER = "PONYBENCH-PROMPT-MARKER-9023"
MD_MARKER = "PONYBENCH-CLAUDE-MD-5521"  # in tests/arms/memory/CLAUDE.md
STYLE_MARKER = "PONYBENCH-STYLE-8812"  # in tests/arms/output-styles/terse.md


def test_plugin_and_prompt_arms_reach_the_model_and_nothing_else_does(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(
        tasks=["sql_lookup", "merge_intervals"],
        arms=f'baseline = {{}}\ntold = {{ prompt = "{PROMPT_MARKER}" }}\n',
    )
    make_plugin(root)
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-reference",
        "--arm",
        "marked=plugin:plugins/marker-plugin",
    )
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(
        ["*verdicts: each arm vs baseline*", "marked vs baseline*", "*pass*undecided*"]
    )
    run_dir = run_dirs(root)[0]
    seen: dict[str, tuple[bool, bool]] = {}
    for cell in (run_dir / "cells").iterdir():
        log = (cell / "offline_requests.jsonl").read_text()
        assert log.strip(), f"{cell.name}: no request logged"
        seen[cell.name] = (HOOK_MARKER in log, PROMPT_MARKER in log)
    for name, (hook, prompt) in seen.items():
        arm = name.split("-")[1]
        assert hook == (arm == "marked"), f"{name}: hook marker in request log = {hook}"
        assert prompt == (arm == "told"), f"{name}: prompt marker in request log = {prompt}"
    recs = {r["cell_id"]: r for r in records(run_dir)}
    assert "marker-plugin" in recs["sql_lookup-marked-offline-reference-r0"]["plugins"]
    assert "marker-plugin" not in recs["sql_lookup-baseline-offline-reference-r0"]["plugins"]
    hashes = {r["arm"]: r["arm_hash"] for r in recs.values()}
    assert len(set(hashes.values())) == 3, hashes
    run = json.loads((run_dir / "run.json").read_text())
    assert {a["name"]: a["hash"] for a in run["arms"]} == hashes


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("broken=plugin:plugins/nope", "arm 'broken' (--arm): plugin dir * does not exist"),
        ("broken=plugin:plugins/bad-json", "arm 'broken' (--arm): *plugin.json is not valid JSON*"),
        ("broken=plugin:plugins/no-name", "arm 'broken' (--arm): *plugin.json has no \"name\""),
        ("broken=settings:{not json", "arm 'broken' (--arm): settings are not valid JSON: *"),
        ("broken=settings:nofile.json", "arm 'broken' (--arm): settings * neither a JSON object*"),
        ("broken=prompt-file:missing.md", "arm 'broken' (--arm): prompt file * does not exist"),
        ("broken=magic:x", "arm 'broken' (--arm): unknown kind 'magic'*"),
        ("justtext", "*--arm 'justtext': expected NAME=KIND:VALUE with KIND one of plugin, prompt*"),
    ],
)
def test_broken_arm_stops_before_any_cell(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], spec: str, message: str
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    make_plugin(root, "bad-json", manifest="{nope")
    make_plugin(root, "no-name", manifest='{"version": "1"}')
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", "offline-reference", "--arm", spec
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {message}"])
    assert not (root / "runs").exists() or not list((root / "runs").glob("*/results.jsonl"))


def test_arm_table_errors_name_the_key(pytester: pytest.Pytester, bench_project: Callable[..., Path]) -> None:
    bench_project(tasks=["sql_lookup"], arms='odd = { plugins = "x", prompt = "y" }\n')
    result = pytester.runpytest_subprocess("benchmarks", "--models", "offline-reference")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: arm 'odd' (*pyproject.toml ?tool.ponybench.arms?): unknown key(s) plugins (known: plugin,*"]
    )


def test_unknown_arm_name_is_a_usage_error(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    bench_project(tasks=["sql_lookup"])
    result = pytester.runpytest_subprocess("benchmarks", "--arms", "baseline,ghost")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --arms: unknown arm(s) ghost (known: baseline)"])


# --- the other arm kinds in cells ---------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[OfflineServer]:
    with OfflineServer() as srv:
        yield srv


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
    tmp_path: Path, server: OfflineServer
) -> None:
    confined_or_skip()
    project = arm_project(tmp_path / "project")
    hidden = mcp_task(tmp_path, [])
    task_file = hidden / "checks" / "test_correct_add.py"
    original = project / "mcp" / "notes" / "server.py"
    arm = parse_spec("notes=mcp:mcp/notes/mcp.json", project)
    # The server runs from a copy of its folder (made once per process, so this is the cell's).
    copied = sealed(arm).of("mcp")[0].path
    assert copied is not None and not copied.is_relative_to(project)
    own = copied.parent / "server.py"
    reads = [str(task_file), str(REPO / "pyproject.toml"), str(original), str(own)]
    task = load_task(mcp_task(tmp_path, reads))
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
    # The task's hidden checks, the project and the folder it was copied from are not there for
    # it; its own files are, in its copy. (The CLI adds a hint about deferred schemas to an error.)
    for tool, text, error in mcp[1:4]:
        assert tool == "mcp__notes__read_file" and error, (tool, text)
        assert text.startswith("cannot read: No such file or directory"), text
    assert mcp[4][0] == "mcp__notes__read_file" and mcp[4][1].startswith("#!/usr/bin/env python3")
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
    arm_project(root)
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
        ARM_FILES / "memory" / "CLAUDE.md"
    ).read_text()
    for key in ("files", "total_loc", "src_loc"):
        assert house[key] == recs["baseline"][key], key
    seeded = json.loads((run_dir / "cells" / house["cell_id"] / "seeded.json").read_text())
    assert "CLAUDE.md" in seeded


# --- a task's agent policy, applied under every arm ---------------------------------------------


APPEND = "PONYBENCH-TASK-APPEND-6611: prefer the standard library."
SOURCE = REPO / "benchmarks" / "tasks" / "merge_intervals"
# Both tasks' good reference looks around with Glob before writing its file.
GLOB_FIRST = 'tool_calls = [{ tool = "Glob", input = { pattern = "*.py" } }]\n'


def policy_task(root: Path, name: str, toml: str) -> None:
    dest = root / "benchmarks" / "tasks" / name
    shutil.copytree(SOURCE, dest)
    (dest / "task.toml").write_text((SOURCE / "task.toml").read_text() + toml)
    (dest / "good" / "ref.toml").write_text(GLOB_FIRST)


def env_plugin(root: Path) -> None:
    """A plugin whose SessionStart hook says what PONY_MODE its session has."""
    plugin = root / "plugins" / "env-hook"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / "hooks").mkdir()
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "env-hook", "version": "1.0.0"}')
    hook = {"type": "command", "command": 'echo "PONY-ENV-[${PONY_MODE:-unset}]"'}
    (plugin / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [hook]}]}}))


def offered_tools(log: Path) -> set[str]:
    """The tools the agent loop's requests offered the model (one set for the whole session),
    without the CLI's own placeholder for deferred tools (`defer_loading`, "never call this tool")."""
    offered: set[str] = set()
    for line in log.read_text().splitlines():
        body = json.loads(line).get("body") or {}
        tools = body.get("tools") if isinstance(body, dict) else None
        if tools and (body.get("max_tokens") or 0) >= 1024:
            offered |= {t["name"] for t in tools if isinstance(t, dict) and not t.get("defer_loading")}
    return offered


def listed_tools(stream: Path) -> set[str]:
    """The tools the session's init event lists."""
    for line in stream.read_text().splitlines():
        event = json.loads(line)
        if event.get("type") == "system" and event.get("subtype") == "init":
            return set(event.get("tools") or [])
    return set()


def glob_results(stream: Path) -> list[tuple[str, bool]]:
    """(text, is_error) of each Glob call's result in a cell's stream."""
    ids: set[str] = set()
    out = []
    for line in stream.read_text().splitlines():
        message = json.loads(line).get("message")
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_use" and block.get("name") == "Glob":
                ids.add(block["id"])
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in ids:
                body = block.get("content")
                out.append((body if isinstance(body, str) else json.dumps(body), bool(block.get("is_error"))))
    return out


def test_a_tasks_policy_reaches_each_of_its_cells(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=[])
    policy_task(
        root,
        "refuse_glob",
        f'disallowed_tools = ["Glob"]\nappend_system_prompt = "{APPEND}"\nruns = 2\ncell_timeout = 120\n'
        '[env]\nPONY_MODE = "strict"\n',
    )
    policy_task(root, "only_edit", 'allowed_tools = ["Read", "Edit", "Write"]\n')
    env_plugin(root)
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", "offline-reference", "--arm", "envhook=plugin:plugins/env-hook"
    )
    # refuse_glob runs twice (its own runs), only_edit once (the default), under two arms.
    result.assert_outcomes(passed=6)
    run_dir = run_dirs(root)[0]
    run = json.loads((run_dir / "run.json").read_text())
    assert run["options"]["task_runs"] == {"refuse_glob": 2}
    recs = records(run_dir)
    assert sorted((r["task"], r["arm"], r["run"]) for r in recs) == sorted(
        [("refuse_glob", a, r) for a in ("baseline", "envhook") for r in (0, 1)]
        + [("only_edit", a, 0) for a in ("baseline", "envhook")]
    )
    for rec in recs:
        cell = run_dir / "cells" / rec["cell_id"]
        log = (cell / "offline_requests.jsonl").read_text()
        offered = offered_tools(cell / "offline_requests.jsonl")
        refused = glob_results(cell / "claude.jsonl")
        # The reference's Glob call was made and refused in both tasks: not offered at all.
        assert len(refused) == 1 and refused[0][1], (rec["cell_id"], refused)
        assert "No such tool available: Glob" in refused[0][0], refused
        assert rec["valid"] and rec["correct"] and rec["safe"], rec
        applied: dict[str, Any]
        if rec["task"] == "refuse_glob":
            applied = {
                "disallowed_tools": ["Glob"],
                "append_system_prompt": APPEND,
                "env": {"PONY_MODE": "strict"},
                "cell_timeout": 120.0,
                "runs": 2,
            }
            assert "Glob" not in offered and {"Read", "Write", "Edit", "Grep"} <= offered, offered
            assert APPEND in log
        else:
            applied = {"allowed_tools": ["Read", "Edit", "Write"]}
            # The whitelist is all the session has: --tools, not --allowedTools.
            assert offered == listed_tools(cell / "claude.jsonl") == {"Read", "Edit", "Write"}, offered
            assert APPEND not in log
        assert rec["agent_policy"] == applied
        if rec["arm"] == "envhook":
            mode = "strict" if rec["task"] == "refuse_glob" else "unset"
            assert f"PONY-ENV-[{mode}]" in log, rec["cell_id"]
    # The report's cell view carries the policy of each cell (its parts: ponybenchCells({...})).
    shown: dict[str, Any] = {}
    for part in run_dir.rglob("*.js"):
        text = part.read_text()
        if text.startswith("ponybenchCells("):
            cells = json.loads(text[text.index("(") + 1 : text.rindex(")")])
            shown.update({d["id"]: d["policy"] for d in cells.values()})
    assert shown == {r["cell_id"]: [[k, v] for k, v in r["agent_policy"].items()] for r in recs}
