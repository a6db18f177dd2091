"""What the gateway measured: one line per request, and a session's totals by source.

Sources say who in a cell asked: `main` (the agent's own session, its subagents included),
`side` (any other session in the cell: a plugin's hook or MCP server running its own model
calls), `judge` (a judge call). The gateway sees each request's session id (the CLI's
`X-Claude-Code-Session-Id`); which one is the cell's own is known when the session ends, from
its transcript, so sources are given then (`by_source`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pytest_ponybench.core.transcript import Usage

__all__ = ["Metered", "SOURCES", "Totals", "by_source", "source_of"]

SOURCES = ("main", "side", "judge")


@dataclass(frozen=True)
class Metered:
    """One request as the gateway saw it."""

    n: int
    time: str
    kind: str  # the seat's: "cell" or "judge"
    session: str | None  # the CLI's session id, as the request gave it
    model: str  # as asked
    served: str  # as sent upstream (an offline cell's other names go to its side model)
    status: int
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    priced: bool = True
    first_byte_ms: float | None = None
    total_ms: float = 0.0
    stop_reason: str | None = None
    tool_use_ids: tuple[str, ...] = ()
    error: str | None = None  # the gateway's word (refused, upstream broke off, client left)
    refused: str | None = None  # why the gateway did not send it

    def as_log(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n,
            "time": self.time,
            "session": self.session,
            "model": self.model,
            "status": self.status,
            "usage": {
                "input_tokens": self.usage.input_tokens,
                "output_tokens": self.usage.output_tokens,
                "cache_read_tokens": self.usage.cache_read_tokens,
                "cache_write_tokens": self.usage.cache_write_tokens,
            },
            "cost_usd": round(self.cost_usd, 8),
            "first_byte_ms": None if self.first_byte_ms is None else round(self.first_byte_ms, 2),
            "total_ms": round(self.total_ms, 2),
        }
        if self.served != self.model:
            out["served"] = self.served
        for key in ("stop_reason", "error", "refused"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.tool_use_ids:
            out["tool_use_ids"] = list(self.tool_use_ids)
        if not self.priced:
            out["priced"] = False
        return out


@dataclass
class Totals:
    requests: int = 0
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def add(self, m: Metered) -> None:
        self.requests += 1
        self.cost_usd += m.cost_usd
        self.input_tokens += m.usage.input_tokens
        self.output_tokens += m.usage.output_tokens
        self.cache_read_tokens += m.usage.cache_read_tokens
        self.cache_write_tokens += m.usage.cache_write_tokens

    @classmethod
    def of(cls, *parts: Totals | None) -> Totals:
        """The sum of several totals (None ones left out)."""
        out = cls()
        for part in parts:
            if part is not None:
                out.requests += part.requests
                out.cost_usd += part.cost_usd
                out.input_tokens += part.input_tokens
                out.output_tokens += part.output_tokens
                out.cache_read_tokens += part.cache_read_tokens
                out.cache_write_tokens += part.cache_write_tokens
        return out

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens + self.cache_read_tokens + self.cache_write_tokens

    def as_record(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "cost_usd": round(self.cost_usd, 8),
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cache_read_tokens": self.cache_read_tokens,
            "cache_write_tokens": self.cache_write_tokens,
        }


def source_of(m: Metered, main_session: str | None) -> str:
    """Who asked: the judge, the cell's own session, or another session in the cell."""
    if m.kind == "judge":
        return "judge"
    if main_session is None or m.session == main_session:
        return "main"
    return "side"


def by_source(requests: Iterable[Metered], main_session: str | None) -> dict[str, Totals]:
    """Totals per source (only the sources that asked), in SOURCES' order."""
    found: dict[str, Totals] = {}
    for m in requests:
        if m.refused is not None:
            continue
        found.setdefault(source_of(m, main_session), Totals()).add(m)
    return {s: found[s] for s in SOURCES if s in found}
