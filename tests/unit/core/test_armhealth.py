"""An arm's health in one session: what of an arm failed (`arm_errors`) and which of its hooks
acted (`hooks_fired`), read from stream lines as claude 2.1.332 writes them with
--include-hook-events. The hook protocol is test_hookproto's, the lines per arm and problem and
the gate analysis/test_health's, the pre-flight's line plan/test_preflight's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_ponybench.analysis import triggers
from pytest_ponybench.core import armhealth
from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.skills import fired, invoked
from tests.support import REPO, transcript_of
from tests.unit._support.evidence import NODE_CRASH
from tests.unit._support.records import arm_record


def hook(
    event: str,
    *,
    stdout: str = "",
    stderr: str = "",
    code: int = 0,
    name: str | None = None,
    n: int = 0,
    output: str | None = None,
) -> list[dict[str, Any]]:
    """A hook's start and end as the stream carries them."""
    ident = f"hook-{event}-{n}"
    head = {"type": "system", "hook_id": ident, "hook_name": name or event, "hook_event": event}
    end = {
        **head,
        "subtype": "hook_response",
        "output": stdout + stderr if output is None else output,
        "stdout": stdout,
        "stderr": stderr,
        "exit_code": code,
        "outcome": "success" if code == 0 else "error",
    }
    return [{**head, "subtype": "hook_started"}, end]


def init(**given: Any) -> dict[str, Any]:
    return {"type": "system", "subtype": "init", "cwd": "/ws", "session_id": "s", **given}


def ended(text: str = "Done.") -> dict[str, Any]:
    return {"type": "result", "subtype": "success", "is_error": False, "result": text}


PLUGINS = REPO / "tests" / "plugins"


def plugin_arm(root: Path, name: str = "mine", files: dict[str, str] | None = None) -> Arm:
    folder = root / name
    (folder / ".claude-plugin").mkdir(parents=True)
    (folder / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": name, "version": "1.0.0"}))
    for rel, text in (files or {}).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return Arm(name, (Part("plugin", path=folder),))


HOOKS = json.dumps({"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "x"}]}]}})
LOADED = [{"name": "mine", "path": "/arms/mine", "source": "mine@inline"}]


# ---------------------------------------------------------------- the stream


def test_a_crashed_hook_s_stderr_is_never_read_as_what_it_printed() -> None:
    t = transcript_of([*hook("SessionStart", stderr=NODE_CRASH, code=1), init(), ended()])
    (h,) = t.hook_events
    assert h.stdout == "" and h.stderr == NODE_CRASH and h.exit_code == 1
    # A CLI that gives only `output` (no `stdout` key) is read by it.
    only_output = [{k: v for k, v in e.items() if k != "stdout"} for e in hook("SessionStart", output="ctx")]
    assert transcript_of([*only_output, init()]).hook_events[0].stdout == "ctx"


# ---------------------------------------------------------------- one session's arm_errors


def test_a_crashed_hook_is_an_arm_error_once_per_event_with_how_often(tmp_path: Path) -> None:
    arm = plugin_arm(tmp_path, files={"hooks/hooks.json": HOOKS})
    lines = [
        *hook("SessionStart", stderr=NODE_CRASH, code=1, name="SessionStart:startup"),
        init(plugins=LOADED),
        *hook("PreToolUse", stderr="guard.py: KeyError: 'tool'", code=1, name="PreToolUse:Write", n=1),
        *hook("PreToolUse", stderr="guard.py: KeyError: 'tool'", code=1, name="PreToolUse:Write", n=2),
        *hook("PreToolUse", stderr="writes are blocked", code=2, name="PreToolUse:Edit", n=3),
        ended(),
    ]
    errors = armhealth.arm_errors(arm, transcript_of(lines))
    assert [(e.kind, e.name, e.exit_code, e.times) for e in errors] == [
        ("hook", "SessionStart", 1, 1),
        ("hook", "PreToolUse", 1, 2),
    ]
    assert errors[0].text().startswith("hook SessionStart exited 1: node:internal/")
    assert errors[1].text() == "hook PreToolUse exited 1: guard.py: KeyError: 'tool' (2 times)"
    assert errors[1].as_record() == {
        "kind": "hook",
        "name": "PreToolUse",
        "message": "exited 1: guard.py: KeyError: 'tool'",
        "exit_code": 1,
        "times": 2,
    }
    assert armhealth.from_record(errors[1].as_record()) == errors[1]


def test_servers_skills_and_a_plugin_that_did_not_load(tmp_path: Path) -> None:
    arm = plugin_arm(
        tmp_path,
        files={
            ".mcp.json": json.dumps({"mcpServers": {"tracker": {"command": "tracker"}}}),
            "skills/review/SKILL.md": "---\nname: review\ndescription: r\n---\n",
            "skills/plain/SKILL.md": "no front matter\n",
            "agents/critic.md": "---\nname: critic\ndescription: c\n---\n",
            "commands/ship.md": "ship it\n",
        },
    )
    mcp = Part("mcp", path=tmp_path / "mcp.json", names=("notes",))
    both = Arm("both", (*arm.parts, mcp))
    seen = init(
        plugins=LOADED,
        mcp_servers=[{"name": "notes", "status": "failed"}],
        skills=["mine:review", "simplify"],
        agents=["mine:critic"],
        slash_commands=["mine:ship"],
    )
    errors = armhealth.arm_errors(both, transcript_of([seen, ended()]))
    assert [e.text() for e in errors] == [
        "MCP server notes did not connect (status failed)",
        "MCP server tracker was not started (the session lists no such server)",
        "skill mine:plain was not registered in the session",
    ]
    # The plugin itself not loaded: said once, with the CLI's words when it gives them.
    gone = armhealth.arm_errors(arm, transcript_of([init(plugins=[]), ended()]))
    assert gone[0].text() == "plugin mine was not loaded (the session lists no such plugin)"
    refused = init(plugins=[], plugin_errors=[{"plugin": "mine", "message": "hooks.json: bad JSON"}])
    first = armhealth.arm_errors(arm, transcript_of([refused, ended()]))[0]
    assert first.text() == "plugin mine could not be loaded: hooks.json: bad JSON"
    # A session that never started says only what ran before it.
    assert armhealth.arm_errors(arm, transcript_of([])) == []


def test_a_healthy_arm_and_the_baseline_have_no_errors(tmp_path: Path) -> None:
    arm = plugin_arm(
        tmp_path, files={"hooks/hooks.json": HOOKS, "skills/review/SKILL.md": "---\nname: review\n---\n"}
    )
    lines = [
        *hook("SessionStart", stdout="Be careful."),
        init(plugins=LOADED, skills=["mine:review"]),
        ended(),
    ]
    assert armhealth.arm_errors(arm, transcript_of(lines)) == []
    assert armhealth.arm_errors(Arm("baseline"), transcript_of([init(), ended()])) == []


# ---------------------------------------------------------------- hooks that acted


def test_a_hook_fired_when_its_context_reached_the_model_or_it_decided() -> None:
    lines = [
        *hook("SessionStart", stdout="HOUSE-STYLE-41"),
        init(),
        *hook("UserPromptSubmit", stdout="", n=1),
        *hook("PreToolUse", stdout='{"hookSpecificOutput": {"permissionDecision": "allow"}}', n=2),
        *hook("PostToolUse", stdout="plain text the model never gets", n=3),
        *hook("Stop", stderr="crash", code=1, n=4),
        ended(),
    ]
    t = transcript_of(lines)
    assert armhealth.hooks_fired(t, "...HOUSE-STYLE-41...") == ["SessionStart", "PreToolUse"]
    # The gateway saw no such context: the hook printed, but nothing of it reached the model.
    assert armhealth.hooks_fired(t, "an unrelated request") == ["PreToolUse"]
    # No gateway view at hand: the hook protocol says what reached it.
    assert armhealth.hooks_fired(t) == ["SessionStart", "PreToolUse"]
    blocked = transcript_of([init(), *hook("PreToolUse", stderr="no writes", code=2), ended()])
    assert armhealth.hooks_fired(blocked, "x") == ["PreToolUse"]


# ---------------------------------------------------------------- skills and triggers


def test_a_failed_skill_call_invoked_nothing() -> None:
    lines = [
        init(),
        {
            "type": "assistant",
            "message": {
                "id": "m1",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "Skill", "input": {"skill": "careful:review"}},
                    {"type": "tool_use", "id": "t2", "name": "Skill", "input": {"skill": "careful:plan"}},
                ],
            },
        },
        {
            "type": "user",
            "message": {
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": "Unknown skill: careful:review",
                        "is_error": True,
                    },
                    {"type": "tool_result", "tool_use_id": "t2", "content": "Launching skill: careful:plan"},
                ]
            },
        },
        ended(),
    ]
    assert invoked(transcript_of(lines).tool_calls) == ["careful:plan"]


def test_a_hook_only_arm_fires_and_gets_its_trigger_line() -> None:
    assert fired(arm_record("guard", hooks=["PreToolUse"])) is True
    assert fired(arm_record("guard", hooks=[])) is False
    assert fired(arm_record("baseline")) is None  # nothing that could fire
    assert fired(arm_record("mine", hooks=[], skills_available=["mine:r"], skills_used=["mine:r"])) is True
    records = [
        arm_record("guard", expect=True, hooks=["PreToolUse"], task=f"t{i}", run=0) for i in range(3)
    ] + [arm_record("guard", expect=False, hooks=[], task=f"u{i}") for i in range(3)]
    (t,) = triggers.per_arm(records)
    assert triggers.describe(t).startswith(
        "trigger accuracy of guard (sonnet): fired where expected 3/3 (100%, Wilson"
    )
    assert "fired where not expected 0/3 (0%" in triggers.describe(t)
