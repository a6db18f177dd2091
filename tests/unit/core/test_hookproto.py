"""Tests for `core/hookproto.py`: what a hook's answer gives the model, whether it decided
something, and whether it crashed, as claude reads a command hook's exit status and output."""

from __future__ import annotations

import json

import pytest

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

SPECIFIC = json.dumps({"hookSpecificOutput": {"additionalContext": "  use the style guide  "}})


@pytest.mark.parametrize(
    ("answer", "event", "context"),
    [
        ("plain words\n", "SessionStart", "plain words"),
        ("plain words", "UserPromptSubmit", "plain words"),
        ("plain words", "PreToolUse", None),  # plain stdout is context only where the event takes it
        ("plain words", None, "plain words"),
        (SPECIFIC, "PreToolUse", "use the style guide"),  # JSON's additionalContext anywhere
        ('{"decision": "block"}', "SessionStart", None),  # the JSON itself is never shown
        ('{"hookSpecificOutput": {"additionalContext": "   "}}', None, None),
        ('{"async": true, "hookSpecificOutput": {"additionalContext": "later"}}', None, None),
        ("[1, 2]", "SessionStart", "[1, 2]"),  # JSON that is not an object is plain text
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
        (HookEvent("PreToolUse", exit_code=2, stderr="not that file"), True),
        (HookEvent("SessionStart", exit_code=2), False),  # cannot be blocked: a failure
        (HookEvent("PreToolUse", exit_code=0, stdout='{"decision": "block"}'), True),
        (
            HookEvent(
                "PreToolUse", exit_code=0, stdout='{"hookSpecificOutput": {"permissionDecision": "deny"}}'
            ),
            True,
        ),
        (
            HookEvent(
                "PermissionRequest", stdout='{"hookSpecificOutput": {"decision": {"behavior": "allow"}}}'
            ),
            True,
        ),
        (HookEvent("Stop", exit_code=0, stdout='{"continue": false}'), True),
        (HookEvent("Stop", exit_code=0, stdout='{"continue": true}'), False),
        (
            HookEvent("PreToolUse", exit_code=1, stdout='{"decision": "block"}'),
            False,
        ),  # a crash decides nothing
        (HookEvent("SessionStart", exit_code=0, stdout="plain words"), False),
    ],
)
def test_whether_a_hook_decided(hook: HookEvent, decides: bool) -> None:
    assert decided(hook) is decides


@pytest.mark.parametrize(
    ("hook", "crash"),
    [
        (HookEvent("SessionStart", exit_code=1), True),
        (HookEvent("SessionStart", exit_code=2), True),
        (HookEvent("Stop", exit_code=2), False),  # a block
        (HookEvent("SessionStart", exit_code=0, outcome="error"), True),  # the CLI's own word
        (HookEvent("SessionStart", outcome="cancelled"), True),
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


def test_a_crash_in_words() -> None:
    assert failure(HookEvent("SessionStart", exit_code=1, stderr="boom\n")) == "exited 1: boom"
    assert (
        failure(HookEvent("SessionStart", exit_code=3, stdout="said on stdout")) == "exited 3: said on stdout"
    )
    assert failure(HookEvent("SessionStart", outcome="timeout")) == "ended in timeout, printing nothing"
    assert failure(HookEvent("SessionStart", exit_code=0)) == "ended in error (exit 0), printing nothing"
