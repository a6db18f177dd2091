"""Agent adapters by name, as `--agents` names them.

A new CLI is one module in this wing with its adapter class, and one line here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytest_ponybench.agents.base import Agent
from pytest_ponybench.agents.claude import ClaudeCode
from pytest_ponybench.agents.codex import Codex
from pytest_ponybench.agents.copilot import Copilot
from pytest_ponybench.agents.opencode import OpenCode
from pytest_ponybench.errors import PonybenchError

__all__ = ["ADAPTERS", "DEFAULT", "get", "names", "of_record", "of_stream"]

ADAPTERS: dict[str, Callable[[], Agent]] = {
    "claude": ClaudeCode,
    "opencode": OpenCode,
    "copilot": Copilot,
    "codex": Codex,
}
DEFAULT = "claude"


def names() -> list[str]:
    return sorted(ADAPTERS)


def get(name: str = DEFAULT) -> Agent:
    """The adapter of one name; a PonybenchError naming --agents for an unknown one."""
    try:
        return ADAPTERS[name]()
    except KeyError:
        known = ", ".join(names()) or "(none)"
        raise PonybenchError(f"--agents: unknown agent {name!r} (known: {known})") from None


def of_record(name: object) -> Agent:
    """The adapter a record names (records before the field: claude); an unknown name reads
    as claude too, so a report of a run dir from elsewhere still opens."""
    factory = ADAPTERS.get(name) if isinstance(name, str) else None
    return (factory or ADAPTERS[DEFAULT])()


def of_stream(stream: Path) -> Agent:
    """The adapter that writes a stream of this file name (`Agent.stream_file`); claude's else."""
    for factory in ADAPTERS.values():
        agent = factory()
        if agent.stream_file == stream.name:
            return agent
    return ADAPTERS[DEFAULT]()
