"""Tests for `core/hookproto.py`: what a hook's answer gives the model, whether it decided
something, and whether it crashed, as claude 2.1.332 reads a command hook's exit status and
output (the first three moved here from test_armhealth)."""

from __future__ import annotations

import json

import pytest

from pytest_ponybench.core import hookproto
from pytest_ponybench.core.hookproto import (
    BLOCKING_EVENTS,
    context_of,
    crashed,
    decided,
    failure,
    is_async,
    top_level_context,
)
from pytest_ponybench.core.transcript import HookEvent
from tests.unit._support.evidence import NODE_CRASH


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


SPECIFIC = json.dumps({"hookSpecificOutput": {"additionalContext": "  use the style guide  "}})


@pytest.mark.parametrize(
    ("answer", "event", "context"),
    [
        ("plain words\n", "UserPromptSubmit", "plain words"),
        (SPECIFIC, "Stop", "use the style guide"),  # JSON's additionalContext anywhere
        ('{"decision": "block"}', "SessionStart", None),  # the JSON itself is never shown
        ('{"hookSpecificOutput": {"additionalContext": "   "}}', None, None),
        ('{"async": true, "hookSpecificOutput": {"additionalContext": "later"}}', None, None),
        ("   \n", "SessionStart", None),
    ],
)
def test_what_the_model_is_given(answer: str, event: str | None, context: str | None) -> None:
    assert context_of(answer, event) == context


def test_a_cli_that_reads_top_level_context() -> None:
    assert top_level_context('{"additionalContext": " top "}') == "top"
    assert top_level_context(SPECIFIC) is None and top_level_context("plain words") is None
    assert top_level_context('{"async": true, "additionalContext": "later"}') is None


def test_async_is_only_an_object_saying_so() -> None:
    assert is_async('{"async": true}') and not is_async('{"async": "yes"}') and not is_async("async")


@pytest.mark.parametrize(
    ("hook", "decides"),
    [
        (HookEvent("UserPromptSubmit", exit_code=2, stderr="not that prompt"), True),
        (
            HookEvent(
                "PermissionRequest", stdout='{"hookSpecificOutput": {"decision": {"behavior": "allow"}}}'
            ),
            True,
        ),
        (HookEvent("Stop", exit_code=0, stdout='{"continue": true}'), False),
        (HookEvent("SessionStart", exit_code=0, stdout='{"decision": ""}'), False),
    ],
)
def test_whether_a_hook_decided(hook: HookEvent, decides: bool) -> None:
    assert decided(hook) is decides


@pytest.mark.parametrize(
    ("hook", "crash"),
    [
        (HookEvent("Stop", exit_code=2), False),  # a block
        (HookEvent("SessionStart", outcome="failure"), True),  # the CLI's own word
        (HookEvent("SessionStart", exit_code=1, ended=False), False),  # started, never ended
        (HookEvent("SessionStart", exit_code=0, outcome="success"), False),
    ],
)
def test_whether_a_hook_crashed(hook: HookEvent, crash: bool) -> None:
    assert crashed(hook) is crash


def test_every_blocking_event_blocks_with_exit_2() -> None:
    assert all(
        decided(HookEvent(e, exit_code=2)) and not crashed(HookEvent(e, exit_code=2)) for e in BLOCKING_EVENTS
    )


def test_a_crash_the_cli_ended_in_its_own_words() -> None:
    assert failure(HookEvent("SessionStart", outcome="timeout")) == "ended in timeout, printing nothing"
    assert failure(HookEvent("SessionStart", exit_code=0)) == "ended in error (exit 0), printing nothing"
