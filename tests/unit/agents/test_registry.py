"""Tests for `agents/registry.py`: the agent adapters by the name `--agents` gives, by the name a
record carries, and by the file name of the stream they write."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_ponybench.agents import registry
from pytest_ponybench.errors import PonybenchError


def test_every_adapter_answers_to_its_own_name_and_writes_its_own_stream() -> None:
    assert registry.names() == ["claude", "codex", "copilot", "opencode"]
    agents = [registry.get(name) for name in registry.names()]
    assert [a.name for a in agents] == registry.names()
    assert len({a.stream_file for a in agents}) == len(agents)
    assert registry.get().name == registry.DEFAULT == "claude"
    assert registry.get("codex") is not registry.get("codex")  # one adapter per call: no shared state


def test_an_unknown_agent_is_one_error_naming_the_flag_and_those_known() -> None:
    with pytest.raises(PonybenchError) as info:
        registry.get("gemini")
    assert str(info.value) == "--agents: unknown agent 'gemini' (known: claude, codex, copilot, opencode)"


@pytest.mark.parametrize(
    ("named", "agent"), [("copilot", "copilot"), (None, "claude"), ("elsewhere", "claude"), (3, "claude")]
)
def test_a_record_s_agent_is_read_as_claude_when_it_names_none_known(named: object, agent: str) -> None:
    assert registry.of_record(named).name == agent


def test_a_stream_file_names_the_adapter_that_wrote_it(tmp_path: Path) -> None:
    for name in registry.names():
        stream = tmp_path / "cells" / "t-a-m-r0" / registry.get(name).stream_file
        assert registry.of_stream(stream).name == name
    assert registry.of_stream(tmp_path / "other.jsonl").name == "claude"
