"""Shelf labels: one per item at a location, printed on the 62 mm label printer."""

from __future__ import annotations

import re

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

class LabelTemplateError(ValueError):
    """A label template that cannot be filled in."""


_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


def render_custom_label(template: str, item: Item, location: Location, qty: int) -> str:
    """The label in the staff's layout: {item.x} and {location.x} are attributes, {qty} the count."""
    roots = {"item": item, "location": location, "qty": qty}

    def value(m: re.Match[str]) -> str:
        if m.group(0) in ("{{", "}}"):
            return m.group(0)[0]
        if m.group(1) is None:
            raise LabelTemplateError(f"stray {m.group(0)!r} in the label template")
        head, *path = m.group(1).split(".")
        try:
            obj = roots[head]
            for name in path:
                obj = getattr(obj, name)
        except (KeyError, AttributeError) as exc:
            raise LabelTemplateError(f"unknown placeholder {m.group(0)}") from exc
        if m.group(1) == "item.price":
            return f"{obj:.2f}"
        return "" if obj is None else str(obj)

    return _PLACEHOLDER.sub(value, template)
