"""Codex's stream, as the real CLI wrote it (recorded offline under tests/unit/data/streams), parsed
into the one transcript every reader reads: a patch, its reply and its usage, an API error in the
API's words; and the adapter's word on each (valid, invalid)."""

from __future__ import annotations

from pathlib import Path

from pytest_ponybench.agents import codex_stream
from pytest_ponybench.agents.codex import Codex
from pytest_ponybench.agents.process import Run
from pytest_ponybench.core.records import ErrorKind
from pytest_ponybench.session import audit
from tests.unit._support import DATA

STREAMS = DATA / "streams"
EXITED = Run(exit_code=0, timed_out=False, wall_s=1.0)


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
