"""Shelf labels: one per item at a location, printed on the 62 mm label printer."""

from __future__ import annotations

import re
from types import SimpleNamespace

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
    """A label template with something other than the known placeholders."""


_ALLOWED = {"item.sku", "item.name", "item.unit", "item.case_size", "item.price", "item.barcode",
            "location.code", "location.name", "qty"}
# A placeholder: braces that are not doubled on either side.
_FIELD = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")


def render_custom_label(template: str, item: Item, location: Location, qty: int) -> str:
    """The label in the staff's layout (see the label_template setting)."""
    for name in _FIELD.findall(template):
        if name not in _ALLOWED:
            raise LabelTemplateError(f"unknown placeholder {{{name}}} in the label template")
    shown = SimpleNamespace(sku=item.sku, name=item.name, unit=item.unit, case_size=item.case_size,
                            price=f"{item.price:.2f}", barcode=item.barcode or "")
    try:
        return template.format(item=shown, location=location, qty=qty)
    except (ValueError, KeyError, IndexError, AttributeError) as exc:
        raise LabelTemplateError(f"bad label template: {exc}") from None
