"""Shelf labels: one per item at a location, printed on the 62 mm label printer."""

from __future__ import annotations

from stockroom.db import Repository
from stockroom.models import Item, Location
from stockroom.money import format_money

WIDTH = 32  # characters per line on the 62 mm roll


def _fit(text: str) -> str:
    return text if len(text) <= WIDTH else text[: WIDTH - 1] + "…"


def render_label(item: Item, location: Location, qty: int, currency: str = "") -> str:
    """The label text: name, SKU and location, price, barcode digits."""
    lines = [
        _fit(item.display_name()),
        _fit(f"{item.sku}  @ {location.code}"),
        _fit(f"{format_money(item.price, currency)} / {item.unit}   qty {qty}"),
    ]
    if item.barcode:
        lines.append(item.barcode)
    return "\n".join(lines) + "\n"


def labels_for_location(repo: Repository, code: str, currency: str = "", template: str | None = None) -> list[str]:
    """A label for every item stocked at a location, by SKU; in the staff's layout when given."""
    location = next((loc for loc in repo.list_locations() if loc.code == code), Location(code))
    labels = []
    for item in repo.list_items():
        qty = repo.stock_on_hand(item.sku, code)
        if qty > 0:
            if template is None:
                labels.append(render_label(item, location, qty, currency))
            else:
                labels.append(render_custom_label(template, item, location, qty))
    return labels


import re


class LabelTemplateError(ValueError):
    """A label template the label printer cannot use."""


_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{(item|location)\.([a-z_]+)\}|\{qty\}|[{}]")


def render_custom_label(template: str, item: Item, location: Location, qty: int) -> str:
    def sub(m: re.Match[str]) -> str:
        token = m.group(0)
        if token in ("{{", "}}"):
            return token[0]
        if token == "{qty}":
            return str(qty)
        obj_name, attr = m.group(1), m.group(2)
        if obj_name is None or attr.startswith("_"):
            raise LabelTemplateError(f"unknown placeholder {token!r}")
        obj = item if obj_name == "item" else location
        if not hasattr(obj, attr):
            raise LabelTemplateError(f"unknown placeholder {token!r}")
        value = getattr(obj, attr)
        if attr == "price":
            return f"{value:.2f}"
        return "" if value is None else str(value)

    return _PLACEHOLDER.sub(sub, template)
