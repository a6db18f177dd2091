"""What to order: items at or below their reorder point, and how much."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

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


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def suggest_orders(repo: Repository, today: date, days: int = 28, cover_days: int = 14) -> list[Suggestion]:
    """Demand-based suggestions, in whole numbers only: demand * n / days rounded up."""
    window = {today - timedelta(days=n) for n in range(1, days + 1)}
    demand: dict[str, int] = {}
    for m in repo.movements():
        if m.kind == "ship" and m.at.date() in window:
            demand[m.sku] = demand.get(m.sku, 0) + abs(m.qty)
    open_orders: dict[str, int] = {}
    for po in repo.purchase_orders():
        open_orders[po.sku] = open_orders.get(po.sku, 0) + po.qty
    result = []
    for item in repo.list_items():
        d = demand.get(item.sku, 0)
        level = _ceil_div(d * item.lead_time_days, days) + item.reorder_point
        on_hand = repo.stock_on_hand(item.sku)
        on_order = open_orders.get(item.sku, 0)
        if on_hand + on_order <= level:
            short = level + _ceil_div(d * cover_days, days) - on_hand - on_order
            if short > 0:
                cases = _ceil_div(short, item.case_size)
                result.append(Suggestion(item.sku, on_hand, on_order, level, cases * item.case_size, cases))
    return sorted(result, key=lambda s: s.sku)
