"""The JSON the web dashboard shows. It passes the query string of its pages straight through:
every view takes the parameters as a dict of strings and answers (status, body)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from stockroom import reports
from stockroom.db import Repository
from stockroom.models import SKU_RE
from stockroom.money import format_money

Answer = tuple[int, dict[str, Any]]


def _error(status: int, message: str) -> Answer:
    return status, {"error": message}


def stock_view(repo: Repository, params: dict[str, str]) -> Answer:
    """GET /stock: every active item with its stock; ?sort=name, ?sort=-price (highest first)."""
    sort = params.get("sort", "sku")
    descending = sort.startswith("-")
    try:
        rows = reports.stock_report(repo, sort[1:] if descending else sort, descending)
    except ValueError:
        return _error(400, f"cannot sort by {sort!r}")
    low_only = params.get("low") == "1"
    if low_only:
        low = {r.sku for r in reports.low_stock(repo)}
        rows = [r for r in rows if r.sku in low]
    return 200, {
        "items": [
            {"sku": r.sku, "name": r.name, "on_hand": r.on_hand, "shown": r.shown,
             "price": format_money(r.price), "value": format_money(r.value)}
            for r in rows
        ],
        "low_only": low_only,
    }


def item_view(repo: Repository, params: dict[str, str]) -> Answer:
    """GET /item?sku=TEA-001: one item, its stock per location and its last movements."""
    sku = params.get("sku", "")
    if not SKU_RE.fullmatch(sku):
        return _error(400, "sku is missing or malformed")
    item = repo.get_item(sku)
    if item is None:
        return _error(404, f"no item {sku}")
    since = None
    if "since" in params:
        try:
            since = datetime.fromisoformat(params["since"])
        except ValueError:
            return _error(400, "since must be a date like 2024-03-01")
    return 200, {
        "sku": item.sku,
        "name": item.name,
        "price": format_money(item.price),
        "locations": repo.stock_by_location(sku),
        "history": [
            {"at": h.at.isoformat(), "location": h.location, "change": h.change, "balance": h.balance,
             "kind": h.kind, "note": h.note}
            for h in reports.history(repo, sku, since)
        ][-50:],
    }


def value_view(repo: Repository, params: dict[str, str]) -> Answer:
    """GET /value: the valuation total, for the finance tile."""
    rows, total = reports.valuation(repo)
    return 200, {"items": len(rows), "total": format_money(total)}
