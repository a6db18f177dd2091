"""Agent adapters by name, as `--agents` names them.

A new CLI is one module in this wing with its adapter class, and one line here.
"""

from __future__ import annotations

from collections.abc import Callable

from pytest_ponybench.agents.base import Agent
from pytest_ponybench.agents.claude import ClaudeCode
from pytest_ponybench.errors import PonybenchError

__all__ = ["ADAPTERS", "DEFAULT", "get", "names", "of_record"]

ADAPTERS: dict[str, Callable[[], Agent]] = {
    "claude": ClaudeCode,
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
