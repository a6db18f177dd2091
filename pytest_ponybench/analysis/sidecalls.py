"""What the arms' own model calls cost: the side spend the gateway metered in each cell.

A plugin whose hooks, subagents of its own or MCP servers call a model spends in its cells what
the agent's session does not show: the gateway meters it as the cell's `side` source. One line
per arm that had any, with the cells it was in, so "is my arm cheaper" counts it.
"""

from __future__ import annotations

from collections.abc import Iterable

from pytest_ponybench.core.records import Record, is_valid, number

__all__ = ["side_lines"]


def side_lines(records: Iterable[Record]) -> list[str]:
    """One line per arm whose cells made side calls: their dollars, in how many of its cells."""
    spent: dict[str, float] = {}
    cells: dict[str, int] = {}
    with_side: dict[str, int] = {}
    for rec in records:
        if not is_valid(rec):
            continue
        arm = str(rec.get("arm"))
        cells[arm] = cells.get(arm, 0) + 1
        usd = number(rec.get("side_cost_usd")) or 0.0
        if usd > 0:
            spent[arm] = spent.get(arm, 0.0) + usd
            with_side[arm] = with_side.get(arm, 0) + 1
    return [
        f"side calls: {arm} ${spent[arm]:.4f} in {with_side[arm]} of {cells[arm]} cells "
        "(its hooks' or MCP servers' own model calls, in its cost)"
        for arm in sorted(spent)
    ]
