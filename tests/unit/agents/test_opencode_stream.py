"""OpenCode's, Copilot CLI's and Codex's streams, as their real CLIs wrote them (recorded offline under
tests/unit/data/streams), parsed into the one transcript every reader reads: tool calls with
their results, the skills a plugin brought and the one used, the end of the session in claude's
shape, an API error with its status; and the adapters' word on each (valid, invalid)."""

from __future__ import annotations

from pathlib import Path

from pytest_ponybench.agents import codex_stream, copilot_stream, opencode_stream
from pytest_ponybench.agents.codex import Codex
from pytest_ponybench.agents.copilot import Copilot
from pytest_ponybench.agents.opencode import OpenCode
from pytest_ponybench.agents.process import Run
from pytest_ponybench.core import skills
from pytest_ponybench.core.records import ErrorKind
from pytest_ponybench.session import audit
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


def test_codex_a_patch_its_reply_and_its_usage() -> None:
    t = codex_stream.parse(STREAMS / "codex-offline-flawed.jsonl")
    assert t.agent == "codex" and t.session_id == "01a249b5-bbe5-7710-9083-147aafd4451d"
    [call] = t.tool_calls
    assert call.tool == "apply_patch" and call.succeeded and call.id == ""  # the stream's own id
    assert call.input is not None and call.input["changes"][0]["kind"] == "update"
    assert t.reply == "Done: wrote shopcart/discounts.py." and t.turns == 1
    assert (t.usage.input_tokens, t.usage.cache_read_tokens, t.usage.output_tokens) == (
        14774 - 7053,
        7053,
        609,
    )
    assert Codex().invalid(t, EXITED, "") is None and Codex().gateway_session(t) == t.session_id
    # The audit reads the patch's files as writes.
    tried = audit.audit_transcript(t, Path("/elsewhere"))
    assert tried.outside_writes == [call.input["changes"][0]["path"]]


def test_codex_an_api_error_is_invalid_with_the_apis_words() -> None:
    t = codex_stream.parse(STREAMS / "codex-offline-error-400.jsonl")
    error = Codex().invalid(t, Run(exit_code=1, timed_out=False, wall_s=1.0), "")
    assert error is not None and error.kind is ErrorKind.API
    assert error.message.endswith(": offline-error-400: scripted HTTP 400 (invalid_request_error)"), (
        error.message
    )
