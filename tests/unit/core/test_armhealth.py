"""An arm's health: the hook protocol (context, decision, crash), what of an arm failed in one
session (`arm_errors`) and which of its hooks acted (`hooks_fired`), read from stream lines as
claude 2.1.332 writes them with --include-hook-events; the lines per arm and problem; the gate
`--fail-on arm_errors` through the real `ponybench` command on a run dir written to disk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench import cli
from pytest_ponybench.analysis import health, triggers
from pytest_ponybench.core import armhealth, hookproto
from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.records import Record, loaded
from pytest_ponybench.core.skills import fired, invoked
from pytest_ponybench.core.transcript import HookEvent
from pytest_ponybench.gateway.routes import Routes
from pytest_ponybench.htmlreport.details import arm_error_items
from pytest_ponybench.plan import preflight
from tests.support import REPO, transcript_of

# node's crash as the CLI reports it: `output` is stdout and stderr together.
NODE_CRASH = (
    "node:internal/modules/cjs/loader:1210\n  throw err;\n  ^\n\n"
    "Error: Cannot find module '/tmp/ponybench-0/1-a/arms/plugin-b/crashing-hook/hooks/session-start.js'\n"
    "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n"
    "    at node:internal/main/run_main_module:28:49 {\n  code: 'MODULE_NOT_FOUND',\n"
    "  requireStack: []\n}\n\nNode.js v20.20.2\n"
)


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


# ---------------------------------------------------------------- the hook protocol


@pytest.mark.parametrize(
    ("answer", "event", "context"),
    [
        ("Follow the style guide.", None, "Follow the style guide."),
        ("Follow the style guide.", "SessionStart", "Follow the style guide."),
        ("Follow the style guide.", "PreToolUse", None),  # plain stdout goes to the model only at start
        ('{"hookSpecificOutput": {"additionalContext": " be brief "}}', "PreToolUse", "be brief"),
        ('{"suppressOutput": true, "continue": true}', "SessionStart", None),
        ('{"async": true}', "SessionStart", None),
        ("[1, 2]", None, "[1, 2]"),
        ("", None, None),
    ],
)
def test_what_a_hook_gives_the_model(answer: str, event: str | None, context: str | None) -> None:
    assert hookproto.context_of(answer, event) == context


@pytest.mark.parametrize(
    ("given", "decided", "crashed"),
    [
        (HookEvent("PreToolUse", exit_code=0, stdout='{"decision": "block", "reason": "no"}'), True, False),
        (
            HookEvent(
                "PreToolUse", exit_code=0, stdout='{"hookSpecificOutput": {"permissionDecision": "deny"}}'
            ),
            True,
            False,
        ),
        (HookEvent("Stop", exit_code=0, stdout='{"continue": false}'), True, False),
        (HookEvent("PreToolUse", exit_code=2, stderr="blocked", outcome="error"), True, False),
        (HookEvent("SessionStart", exit_code=2, stderr="no", outcome="error"), False, True),
        (HookEvent("SessionStart", exit_code=1, stderr="boom", outcome="error"), False, True),
        (HookEvent("PreToolUse", exit_code=1, stdout='{"decision": "block"}', outcome="error"), False, True),
        (HookEvent("SessionStart", exit_code=None, outcome="cancelled"), False, True),
        (HookEvent("SessionStart", ended=False), False, False),  # still running (async)
        (HookEvent("SessionStart", exit_code=0, stdout="context"), False, False),
    ],
)
def test_a_decision_a_block_and_a_crash(given: HookEvent, decided: bool, crashed: bool) -> None:
    assert hookproto.decided(given) is decided
    assert hookproto.crashed(given) is crashed


def test_a_crash_is_said_by_its_exit_and_its_error_line() -> None:
    said = hookproto.failure(HookEvent("SessionStart", exit_code=1, stderr=NODE_CRASH, outcome="error"))
    assert said.startswith("exited 1: node:internal/modules/cjs/loader:1210 … Error: Cannot find module '")
    assert said.endswith(" … Node.js v20.20.2") and "hooks/session-start.js'" in said
    assert hookproto.failure(HookEvent("X", exit_code=3)) == "exited 3, printing nothing"
    # The CLI's own failure of a hook that exited 0: an answer it could not read.
    unreadable = HookEvent("PreToolUse", exit_code=0, outcome="error", stderr="Hook output is not valid JSON")
    assert hookproto.crashed(unreadable)
    assert hookproto.failure(unreadable) == "ended in error (exit 0): Hook output is not valid JSON"
    assert hookproto.failure(HookEvent("X", exit_code=1, stdout="only stdout")) == "exited 1: only stdout"


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


def rec(arm: str, *, expect: bool | None = None, hooks: list[str] | None = None, **more: Any) -> Record:
    out: dict[str, Any] = {"task": "t0", "arm": arm, "model": "sonnet", "run": 0, "valid": True, **more}
    out["cell_id"] = f"{out['task']}-{arm}-sonnet-r{out['run']}"
    if expect is not None:
        out["expect_fire"] = expect
    if hooks is not None:
        out["hooks_fired"] = hooks
    return loaded(out)


def test_a_hook_only_arm_fires_and_gets_its_trigger_line() -> None:
    assert fired(rec("guard", hooks=["PreToolUse"])) is True
    assert fired(rec("guard", hooks=[])) is False
    assert fired(rec("baseline")) is None  # nothing that could fire
    assert fired(rec("mine", hooks=[], skills_available=["mine:r"], skills_used=["mine:r"])) is True
    records = [rec("guard", expect=True, hooks=["PreToolUse"], task=f"t{i}", run=0) for i in range(3)] + [
        rec("guard", expect=False, hooks=[], task=f"u{i}") for i in range(3)
    ]
    (t,) = triggers.per_arm(records)
    assert triggers.describe(t).startswith(
        "trigger accuracy of guard (sonnet): fired where expected 3/3 (100%, Wilson"
    )
    assert "fired where not expected 0/3 (0%" in triggers.describe(t)


# ---------------------------------------------------------------- across cells


CRASH = {
    "kind": "hook",
    "name": "SessionStart",
    "message": "exited 1: Error: Cannot find module 'x'",
    "exit_code": 1,
}


def grid(errors_in: int, cells: int = 4) -> list[Record]:
    out = []
    for i in range(cells):
        out.append(rec("baseline", task=f"t{i}", arm_errors=[]))
        out.append(rec("crashy", task=f"t{i}", arm_errors=[CRASH] if i < errors_in else []))
    return out


def test_one_line_per_arm_and_problem_with_its_count() -> None:
    records = grid(errors_in=3)
    records.append(
        rec(
            "crashy",
            task="t0",
            arm_errors=[
                CRASH,
                {"kind": "mcp", "name": "notes", "message": "did not connect (status failed)"},
            ],
            attempt=2,
        )
    )
    assert health.health_lines(records) == [
        "arm crashy: hook SessionStart failed in 3 of 4 cells (exited 1): Error: Cannot find module 'x'",
        "arm crashy: MCP server notes did not start in 1 of 4 cells: did not connect (status failed)",
    ]
    assert health.health_lines(grid(errors_in=0)) == []
    # Records written before arm_errors, or malformed ones, say nothing (and never crash).
    odd = [rec("crashy"), rec("crashy", task="t1", arm_errors=[{"kind": 1}, "x", None])]
    assert health.health_lines(odd) == []
    assert arm_error_items(records[-1]) == [
        "hook SessionStart exited 1: Error: Cannot find module 'x'",
        "MCP server notes did not connect (status failed)",
    ]


def write_run(root: Path, records: list[Record]) -> Path:
    run = root / "run"
    run.mkdir(parents=True)
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return run


def test_the_gate_fails_on_any_arm_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path, grid(errors_in=1))
    assert cli.main(["compare", str(run), "--fail-on", "arm_errors"]) == cli.GATE_FAILED
    out = capsys.readouterr().out
    assert "FAIL arm_errors: arm crashy: hook SessionStart failed in 1 of 4 cells (exited 1)" in out
    assert "gate failed: arm_errors" in out
    healthy = write_run(tmp_path / "ok", grid(errors_in=0))
    assert cli.main(["compare", str(healthy), "--fail-on", "arm_errors"]) == cli.OK
    assert "gate passed: arm_errors" in capsys.readouterr().out


def test_a_run_that_never_recorded_its_arms_health_measured_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = [{k: v for k, v in r.items() if k != "arm_errors"} for r in grid(errors_in=0)]
    run = write_run(tmp_path, [loaded(r) for r in old])
    assert cli.main(["compare", str(run), "--fail-on", "arm_errors"]) == cli.GATE_FAILED
    assert "nothing measured for arm_errors (no record says its arm's health)" in capsys.readouterr().out


def test_arm_errors_takes_no_margin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path, grid(errors_in=1))
    assert cli.main(["compare", str(run), "--fail-on", "arm_errors:10%"]) == cli.USAGE
    assert "arm_errors takes no margin" in capsys.readouterr().err


def test_the_summary_says_what_failed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path, grid(errors_in=4))
    assert cli.main(["summary", str(run)]) == cli.OK
    assert "arm crashy: hook SessionStart failed in 4 of 4 cells (exited 1): Error: Cannot find module" in (
        capsys.readouterr().out
    )


# ---------------------------------------------------------------- the pre-flight's line per arm


def test_the_preflight_says_each_arm_in_one_line() -> None:
    ok = {"arm": "mine", "ok": True, "problems": [], "evidence": {"hook_events": ["SessionStart"]}}
    assert preflight.arm_line(ok, "hooks SessionStart") == "arm mine: ok (hooks SessionStart)"
    assert preflight.arm_line(ok) == "arm mine: ok"
    bad = {
        "arm": "mine",
        "ok": False,
        "problems": ["hook SessionStart exited 1: a \x1b[31m … Error: b", "its skill 'x' is not registered"],
    }
    # Problems in one line, joined; a terminal's control characters escaped, never obeyed.
    assert preflight.arm_line(bad) == (
        "arm mine: hook SessionStart exited 1: a \\x1b[31m … Error: b; its skill 'x' is not registered"
    )


def test_a_baseline_is_said_without_starting_a_session() -> None:
    def routes() -> Routes:
        raise AssertionError("nothing to check: no offline server is started")

    results, lines = preflight.activation_lines(
        [Arm("baseline"), Arm("none")],
        [("claude", "claude")],
        routes,
        baseline=False,
        note=preflight.REFUSED_NOTE,
    )
    assert results == []
    assert lines == ["arm baseline: ok (nothing to load)", "arm none: ok (nothing to load)"]


def test_a_cli_that_reads_the_top_level_context_gets_it_and_nothing_of_plain_stdout() -> None:
    """Copilot CLI reads a JSON answer's top-level additionalContext; claude reads
    hookSpecificOutput's. Each gets only its own, and an async answer gives nothing yet."""
    top = json.dumps({"additionalContext": " house style "})
    specific = json.dumps({"hookSpecificOutput": {"additionalContext": "house style"}})
    assert preflight.model_context(top, top_level=True) == ("house style", False)
    assert preflight.model_context(specific, top_level=True) == (None, False)
    assert preflight.model_context("plain text", top_level=True) == (None, False)
    assert preflight.model_context('{"async": true}', top_level=True) == (None, True)
    assert preflight.model_context("plain text") == ("plain text", False)
    assert preflight.model_context(specific) == ("house style", False)
