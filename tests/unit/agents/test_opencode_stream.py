"""OpenCode's stream, as the real CLI wrote it (recorded offline under tests/unit/data/streams),
parsed into the one transcript every reader reads: tool calls with their results, the end of the
session in claude's shape, an API error with its status; and the adapter's word on each
(valid, invalid). Copilot CLI's and Codex's are in test_copilot_stream and test_codex_stream."""

from __future__ import annotations

from pytest_ponybench.agents import opencode_stream
from pytest_ponybench.agents.opencode import OpenCode
from pytest_ponybench.agents.process import Run
from pytest_ponybench.core.records import ErrorKind
from tests.unit._support import DATA

STREAMS = DATA / "streams"
EXITED = Run(exit_code=0, timed_out=False, wall_s=1.0)


def test_opencode_a_read_an_edit_and_the_reply() -> None:
    t = opencode_stream.parse(STREAMS / "opencode-offline-flawed.jsonl")
    assert t.agent == "opencode" and t.session_id and t.session_id.startswith("ses_")
    assert [c.tool for c in t.tool_calls] == ["read", "edit"]
    read, edit = t.tool_calls
    assert read.succeeded and edit.succeeded and edit.input is not None and "oldString" in edit.input
    assert t.turns == t.assistant_turns == 3 and t.reply.startswith("Done: wrote")
    assert t.result is not None and t.result["subtype"] == "success" and t.result["finish_reason"] == "stop"
    assert t.usage.cache_read_tokens > 0 and t.usage.output_tokens > 0 and t.cli_usage
    assert OpenCode().invalid(t, EXITED, "") is None


def test_opencode_an_api_error_is_invalid_with_its_status() -> None:
    t = opencode_stream.parse(STREAMS / "opencode-offline-error-400.jsonl")
    assert t.result is not None and t.result["is_error"] and t.result["api_error_status"] == 400
    error = OpenCode().invalid(t, Run(exit_code=1, timed_out=False, wall_s=1.0), "")
    assert error is not None and error.kind is ErrorKind.API
    assert error.message.startswith("API error 400: offline-error-400: scripted HTTP 400")
    assert OpenCode().api_error_status(t) == 400


def test_opencode_nothing_finished_is_invalid() -> None:
    t = opencode_stream.parse_lines([])
    error = OpenCode().invalid(t, Run(exit_code=0, timed_out=False, wall_s=1.0), "")
    assert error is not None and "no finished step" in error.message
