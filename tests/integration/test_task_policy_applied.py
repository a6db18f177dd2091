"""A task's agent policy applied to its cells through the real claude CLI against the offline
server: a disallowed tool is refused, an allowed list is all the session offers, the appended
prompt and the environment reach the session, a task's own runs set its cells, and the record
and the report say what was applied."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO, records, run_dirs

pytestmark = pytest.mark.needs_claude

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
