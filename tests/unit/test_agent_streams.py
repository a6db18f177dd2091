"""OpenCode's and Copilot CLI's streams, as their real CLIs wrote them (recorded offline under
tests/unit/data/streams), parsed into the one transcript every reader reads: tool calls with
their results, the skills a plugin brought and the one used, the end of the session in claude's
shape, an API error with its status; and the adapters' word on each (valid, invalid)."""

from __future__ import annotations

from pathlib import Path

from pytest_ponybench.agents import copilot_stream, opencode_stream
from pytest_ponybench.agents.copilot import Copilot
from pytest_ponybench.agents.opencode import OpenCode
from pytest_ponybench.agents.process import Run
from pytest_ponybench.core import skills
from pytest_ponybench.core.records import ErrorKind

STREAMS = Path(__file__).parent / "data" / "streams"
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


def test_copilot_a_plugins_skill_invoked_and_its_file_created() -> None:
    t = copilot_stream.parse(STREAMS / "copilot-offline-coin.jsonl")
    assert t.agent == "copilot" and not t.cli_usage and t.usage.input_tokens == 0
    assert [c.tool for c in t.tool_calls] == ["skill", "create"]
    assert all(c.succeeded for c in t.tool_calls)
    # The start in claude's shape: the plugin's skill by its command name, the plugin by it.
    assert t.init is not None and t.init["skills"] == ["careful:careful-review"]
    assert t.plugins == ["careful"] and t.init["mcp_servers"] == []
    used = skills.usage(t)
    assert used["skills_available"] == used["skills_used"] == ["careful:careful-review"]
    assert t.result is not None and t.result["subtype"] == "success" and t.turns == 3
    assert t.reply == "Done: wrote intervals.py." and t.session_id
    assert Copilot().invalid(t, EXITED, "") is None
    assert Copilot().gateway_session(t) == ""  # its requests name no session


def test_copilot_an_api_error_is_invalid_with_its_status() -> None:
    t = copilot_stream.parse(STREAMS / "copilot-offline-error-400.jsonl")
    assert t.result is not None and t.result["is_error"] and t.result["exitCode"] == 1
    error = Copilot().invalid(t, Run(exit_code=1, timed_out=False, wall_s=1.0), "")
    assert error is not None and error.kind is ErrorKind.API and error.message.startswith("API error 400: ")
    assert Copilot().api_error_status(t) == 400
