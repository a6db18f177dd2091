"""The reports the team reads every morning, as rows (for the dashboard) and text tables."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from stockroom.db import Repository
from stockroom.money import format_money
from stockroom.units import describe


@dataclass(frozen=True)
class StockRow:
    sku: str
    name: str
    on_hand: int
    shown: str  # on_hand as people count it ("2 cases + 3")
    price: Decimal
    value: Decimal


def stock_report(repo: Repository, order_by: str = "sku", descending: bool = False) -> list[StockRow]:
    """Every active item with what is on hand over all locations, in `order_by` order (by SKU)."""
    levels = repo.stock_levels()
    rows = []
    for item in repo.list_items(order_by=order_by, descending=descending):
        on_hand = levels.get(item.sku, 0)
        rows.append(StockRow(item.sku, item.name, on_hand, describe(on_hand, item), item.price, item.value_of(on_hand)))
    return rows


def valuation(repo: Repository) -> tuple[list[StockRow], Decimal]:
    """The stock report with the total value of the stock."""
    rows = stock_report(repo)
    return rows, sum((r.value for r in rows), Decimal("0.00"))


def low_stock(repo: Repository) -> list[StockRow]:
    """Items at or below their reorder point (items with no reorder point are never low)."""
    points = {i.sku: i.reorder_point for i in repo.list_items()}
    return [r for r in stock_report(repo) if points[r.sku] > 0 and r.on_hand <= points[r.sku]]


@dataclass(frozen=True)
class HistoryRow:
    at: datetime
    location: str
    change: int
    balance: int
    kind: str
    note: str
    user: str


def history(repo: Repository, sku: str, since: datetime | None = None) -> list[HistoryRow]:
    """An item's movements with the running balance over all locations."""
    rows, balance = [], 0
    for m in repo.movements(sku):
        balance += m.qty
        if since is None or m.at >= since:
            rows.append(HistoryRow(m.at, m.location, m.qty, balance, m.kind, m.note, m.user))
    return rows


def render_table(headers: list[str], rows: list[list[str]], align_right: set[int] | None = None) -> str:
    """A plain text table, columns as wide as their widest cell, numbers right-aligned."""
    right = align_right or set()
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(cells)).rstrip()

    out = [line(headers), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out) + "\n"


def stock_table(rows: list[StockRow], currency: str = "") -> str:
    return render_table(
        ["SKU", "Name", "On hand", "Price", "Value"],
        [[r.sku, r.name, r.shown, format_money(r.price, currency), format_money(r.value, currency)] for r in rows],
        align_right={2, 3, 4},
    )


def history_table(rows: list[HistoryRow]) -> str:
    return render_table(
        ["When", "Where", "Change", "Balance", "Kind", "Note", "By"],
        [[r.at.strftime("%Y-%m-%d %H:%M"), r.location, f"{r.change:+d}", str(r.balance), r.kind, r.note, r.user]
         for r in rows],
        align_right={2, 3},
    )
