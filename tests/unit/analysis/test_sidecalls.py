"""Tests for `analysis/sidecalls.py`: the side spend the gateway metered in an arm's cells (its
hooks' or MCP servers' own model calls), one line per arm that had any."""

from __future__ import annotations

from typing import Any

from pytest_ponybench.analysis.sidecalls import side_lines
from pytest_ponybench.core.records import Record
from tests.unit._support.records import rec

WHY = "(its hooks' or MCP servers' own model calls, in its cost)"


def cell(arm: str, side: Any = None, **extra: Any) -> Record:
    return rec("t", arm, **({"side_cost_usd": side} if side is not None else {}), **extra)


def test_one_line_per_arm_with_side_calls_in_how_many_of_its_cells() -> None:
    records = [
        cell("baseline"),
        cell("baseline"),
        cell("mine", 0.25),
        cell("mine", 0.0),
        cell("mine", 0.5),
        cell("another", 0.001),
    ]
    assert side_lines(records) == [
        "side calls: another $0.0010 in 1 of 1 cells " + WHY,
        "side calls: mine $0.7500 in 2 of 3 cells " + WHY,
    ]


def test_invalid_cells_and_numbers_that_are_not_spend_are_left_out() -> None:
    records = [
        cell("mine", 0.5),
        cell("mine", 9.0, valid=False),  # an invalid cell neither spends nor counts
        cell("mine", "a lot"),
        cell("mine", float("nan")),
        cell("mine", -1.0),
    ]
    assert side_lines(records) == ["side calls: mine $0.5000 in 1 of 4 cells " + WHY]


def test_no_side_calls_no_lines() -> None:
    assert side_lines([cell("baseline"), cell("mine", 0.0)]) == []
    assert side_lines([]) == []
