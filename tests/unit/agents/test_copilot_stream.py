"""Copilot CLI's stream, as the real CLI wrote it (recorded offline under tests/unit/data/streams),
parsed into the one transcript every reader reads: a plugin's skill invoked and the file it
created, an API error with its status; and the adapter's word on each (valid, invalid)."""

from __future__ import annotations

from pytest_ponybench.agents import copilot_stream
from pytest_ponybench.agents.copilot import Copilot
from pytest_ponybench.agents.process import Run
from pytest_ponybench.core import skills
from pytest_ponybench.core.records import ErrorKind
from tests.unit._support import DATA

STREAMS = DATA / "streams"
EXITED = Run(exit_code=0, timed_out=False, wall_s=1.0)


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
