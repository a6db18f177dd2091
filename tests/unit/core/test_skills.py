"""Tests for `core/skills.py`: which plugin skills, agents and commands a session had and which it
used, read from its transcript; whether the arm was exercised or fired (the summary's skill
column is analysis/test_report_skill_usage's)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.agents import claude_stream
from pytest_ponybench.core import skills
from pytest_ponybench.core.records import loaded
from pytest_ponybench.core.transcript import ToolCall, Transcript


def test_a_skills_arm_s_own_skills_count_as_available(tmp_path: Path) -> None:
    """A skills arm's skills are listed by the CLI without a plugin prefix (by their folder's
    name, as claude 2.1.332's init event lists them): the cell counts those the arm placed, never
    the CLI's own skills."""
    stream = tmp_path / "claude.jsonl"
    lines = [
        {
            "type": "system",
            "subtype": "init",
            "skills": ["csv-summary", "simplify", "code-review"],
            "plugins": [],
        },
        {
            "type": "assistant",
            "message": {
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "Skill", "input": {"skill": "csv-summary"}}
                ]
            },
        },
        # A call counts as a use once the CLI answered it without an error.
        {
            "type": "user",
            "message": {
                "content": [
                    {"type": "tool_result", "tool_use_id": "t1", "content": "Launching skill: csv-summary"}
                ]
            },
        },
    ]
    stream.write_text("".join(json.dumps(e) + "\n" for e in lines))
    transcript = claude_stream.parse(stream)
    assert skills.usage(transcript) == {"skills_available": [], "skills_used": ["csv-summary"]}
    got = skills.usage(transcript, own=["csv-summary", "not-listed"])
    assert got == {"skills_available": ["csv-summary"], "skills_used": ["csv-summary"]}
    assert skills.exercised(loaded({**got, "task": "t", "arm": "a", "model": "m", "run": 0})) is True


INIT: dict[str, Any] = {
    "plugins": [
        {"name": "careful", "path": "/plugins/careful"},
        {"name": "builtin-helper", "path": "builtin"},
        "bare",
    ],
    "skills": ["careful:careful-review", "builtin-helper:x", "simplify", {"name": "bare:tidy"}],
    "agents": ["general-purpose", "careful:auditor"],
    "slash_commands": ["/help", "careful:check"],
}


def call(n: int, tool: str, given: dict[str, Any] | None, is_error: bool | None = False) -> ToolCall:
    return ToolCall(n, tool, given, is_error=is_error)


def test_what_the_arms_plugins_registered_by_kind() -> None:
    assert skills.arm_plugins(INIT) == ["careful", "bare"]  # the CLI's built-ins are not the arm's
    assert skills.registered(INIT) == {
        "skills": ["bare:tidy", "careful:careful-review"],
        "agents": ["careful:auditor"],
        "commands": ["careful:check"],
    }
    assert skills.registered(INIT, ["bare"]) == {"skills": ["bare:tidy"], "agents": [], "commands": []}


def test_what_was_invoked_is_what_succeeded_once_each_in_order() -> None:
    calls = [
        call(0, "Skill", {"skill": "careful:careful-review"}),
        call(1, "Skill", {"skill": "careful:careful-review"}),  # once each
        call(2, "Skill", {"skill": "careful:missing"}, is_error=True),  # `Unknown skill`: nothing invoked
        call(3, "Task", {"subagent_type": "general-purpose"}),  # a built-in agent: not the arm's
        call(4, "Agent", {"subagent_type": "careful:auditor"}),
        call(5, "SlashCommand", {"command": "/careful:check now"}),
        call(6, "skill", {"name": "tidy"}),  # OpenCode's tool, by the skill's own name
        call(7, "Skill", None),  # an input that did not parse
        call(8, "Skill", {"skill": "unanswered"}, is_error=None),  # no result seen
        call(9, "Read", {"file_path": "x"}),
    ]
    assert skills.invoked(calls) == ["careful:careful-review", "careful:auditor", "careful:check", "tidy"]


def test_a_skill_invoked_by_its_own_name_is_counted_as_its_plugin_registered_it() -> None:
    transcript = Transcript(init=INIT, tool_calls=[call(0, "skill", {"name": "tidy"})])
    assert skills.usage(transcript)["skills_used"] == ["bare:tidy"]


@pytest.mark.parametrize(
    ("fields", "exercised", "fired"),
    [
        ({}, None, None),
        ({"skills_available": ["a:b"], "skills_used": []}, False, False),
        ({"skills_available": ["a:b"], "skills_used": ["a:b"]}, True, True),
        ({"skills_available": [], "hooks_fired": ["SessionStart"]}, None, True),
        ({"skills_available": ["a:b"], "skills_used": [], "hooks_fired": []}, False, False),
    ],
)
def test_whether_the_arm_was_exercised_and_fired(
    fields: dict[str, Any], exercised: bool | None, fired: bool | None
) -> None:
    rec = loaded({"task": "t", "arm": "a", "model": "m", "run": 0, **fields})
    assert skills.exercised(rec) is exercised and skills.fired(rec) is fired
