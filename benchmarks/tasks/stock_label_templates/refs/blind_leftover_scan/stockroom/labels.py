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


def render_custom_label(template: str, item: Item, location: Location, qty: int) -> str:
    values = {
        "{item.sku}": item.sku,
        "{item.name}": item.name,
        "{item.unit}": item.unit,
        "{item.case_size}": str(item.case_size),
        "{item.price}": f"{item.price:.2f}",
        "{item.barcode}": item.barcode or "",
        "{location.code}": location.code,
        "{location.name}": location.name,
        "{qty}": str(qty),
    }
    text = template.replace("{{", "\x00").replace("}}", "\x01")
    for key, value in values.items():
        text = text.replace(key, value)
    # Whatever brace is left was not one of ours.
    if re.search(r"[{}]", text):
        raise LabelTemplateError(f"unknown placeholder in {template!r}")
    return text.replace("\x00", "{").replace("\x01", "}")
