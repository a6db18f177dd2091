"""What to order: items at or below their reorder point, and how much."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction

from stockroom.db import Repository
from stockroom.units import cases_to_order


@dataclass(frozen=True)
class ReorderLine:
    sku: str
    on_hand: int
    reorder_point: int
    order_units: int
    order_cases: int


def reorder_list(repo: Repository) -> list[ReorderLine]:
    """Items whose stock is at or below their reorder point, with an order that brings them
    back to twice the reorder point, in whole cases. Items without a reorder point are not
    listed."""
    levels = repo.stock_levels()
    lines = []
    for item in repo.list_items():
        on_hand = levels.get(item.sku, 0)
        if item.reorder_point == 0 or on_hand > item.reorder_point:
            continue
        cases = cases_to_order(2 * item.reorder_point - on_hand, item.case_size)
        lines.append(ReorderLine(item.sku, on_hand, item.reorder_point, cases * item.case_size, cases))
    return lines


@dataclass(frozen=True)
class Suggestion:
    sku: str
    on_hand: int
    on_order: int
    reorder_level: int
    order_units: int
    order_cases: int


def _shipped(repo: Repository, today: date, days: int) -> dict[str, int]:
    """Units shipped per SKU on the `days` days before today (today itself not included)."""
    first = today - timedelta(days=days)
    totals: dict[str, int] = {}
    for m in repo.movements():
        if m.kind == "ship" and first <= m.at.date() < today:
            totals[m.sku] = totals.get(m.sku, 0) - m.qty
    return totals


def suggest_orders(repo: Repository, today: date, days: int = 28, cover_days: int = 14) -> list[Suggestion]:
    """Items whose stock and open orders are at or below a demand-based reorder level, with the
    whole cases that bring them up to that level plus `cover_days` of demand."""
    shipped = _shipped(repo, today, days)
    levels = repo.stock_levels()
    suggestions = []
    for item in repo.list_items():
        daily = Fraction(shipped.get(item.sku, 0), days)  # exact: rounded only per level
        reorder_level = math.ceil(daily * item.lead_time_days) + item.reorder_point
        on_hand = levels.get(item.sku, 0)
        on_order = sum(po.qty for po in repo.purchase_orders(item.sku))
        position = on_hand + on_order
        if position >= reorder_level:
            continue
        target = reorder_level + math.ceil(daily * cover_days)
        cases = cases_to_order(target - position, item.case_size)
        if cases == 0:
            continue
        suggestions.append(Suggestion(item.sku, on_hand, on_order, reorder_level, cases * item.case_size, cases))
    return suggestions
