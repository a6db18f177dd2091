"""Tests for `gateway/meter.py`: a metered request's log line, and a session's totals by who asked
(the agent's own session, another session in the cell, the judge)."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_ponybench.core.transcript import Usage
from pytest_ponybench.gateway.meter import Metered, Totals, by_source, source_of


def metered(n: int, session: str | None = "s-main", kind: str = "cell", **fields: Any) -> Metered:
    usage = Usage(input_tokens=10 * n, output_tokens=n, cache_read_tokens=100, cache_write_tokens=5)
    return Metered(
        n, "2026-12-06T09:00:00+00:00", kind, session, "sonnet", "sonnet", 200, usage, 0.001 * n, **fields
    )


def test_a_plain_request_logs_only_what_it_has() -> None:
    assert metered(1, first_byte_ms=12.3456, total_ms=45.6789).as_log() == {
        "n": 1,
        "time": "2026-12-06T09:00:00+00:00",
        "session": "s-main",
        "model": "sonnet",
        "status": 200,
        "usage": {"input_tokens": 10, "output_tokens": 1, "cache_read_tokens": 100, "cache_write_tokens": 5},
        "cost_usd": 0.001,
        "first_byte_ms": 12.35,
        "total_ms": 45.68,
    }


def test_what_was_served_stopped_refused_or_unpriced_is_logged_when_it_is_there() -> None:
    m = Metered(
        2,
        "t",
        "cell",
        None,
        "claude-haiku-4-5",
        "offline-reference",
        429,
        stop_reason="tool_use",
        tool_use_ids=("toolu_1", "toolu_2"),
        error="upstream broke off",
        refused="over budget",
        priced=False,
    )
    log = m.as_log()
    assert log["served"] == "offline-reference" and log["first_byte_ms"] is None
    assert (log["stop_reason"], log["error"], log["refused"]) == (
        "tool_use",
        "upstream broke off",
        "over budget",
    )
    assert log["tool_use_ids"] == ["toolu_1", "toolu_2"] and log["priced"] is False


@pytest.mark.parametrize(
    ("session", "kind", "main", "source"),
    [
        ("s-main", "cell", "s-main", "main"),
        ("s-hook", "cell", "s-main", "side"),
        (None, "cell", "s-main", "side"),
        ("s-main", "judge", "s-main", "judge"),  # a judge seat's request is the judge's, whatever it names
        ("anything", "cell", None, "main"),  # the session is not known: every request is the cell's own
        (None, "cell", "", "main"),  # a CLI whose requests name no session
        ("s-hook", "cell", "", "side"),
    ],
)
def test_who_asked(session: str | None, kind: str, main: str | None, source: str) -> None:
    assert source_of(metered(1, session, kind), main) == source


def test_totals_by_source_in_their_order_without_the_refused() -> None:
    requests = [
        metered(1, "s-judge", kind="judge"),
        metered(2, "s-hook"),
        metered(3),
        metered(4),
        metered(5, refused="over budget"),  # never sent: neither spent nor counted
    ]
    totals = by_source(requests, "s-main")
    assert list(totals) == ["main", "side", "judge"]
    main = totals["main"]
    assert (main.requests, main.input_tokens, main.output_tokens) == (2, 70, 7)
    assert main.as_record() == {
        "requests": 2,
        "cost_usd": 0.007,
        "input_tokens": 70,
        "output_tokens": 7,
        "cache_read_tokens": 200,
        "cache_write_tokens": 10,
    }
    assert main.tokens == 70 + 7 + 200 + 10
    assert by_source([], "s-main") == {}


def test_totals_of_several_leave_none_out() -> None:
    a, b = Totals(), Totals()
    a.add(metered(1))
    b.add(metered(2))
    b.add(metered(3))
    both = Totals.of(a, None, b)
    assert both.as_record() == {
        "requests": 3,
        "cost_usd": 0.006,
        "input_tokens": 60,
        "output_tokens": 6,
        "cache_read_tokens": 300,
        "cache_write_tokens": 15,
    }
    assert Totals.of() == Totals() and Totals.of(None) == Totals()
