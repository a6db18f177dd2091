"""Shelf labels: one per item at a location, printed on the 62 mm label printer."""

from __future__ import annotations

import string
from decimal import Decimal

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


class _LabelFormatter(string.Formatter):
    """str.format's parser, with lookups limited to a fixed table of strings."""

    def __init__(self, values: dict[str, str]) -> None:
        self.values = values

    def get_field(self, field_name, args, kwargs):  # type: ignore[override]
        if field_name not in self.values:
            raise LabelTemplateError(f"unknown placeholder {{{field_name}}}")
        return self.values[field_name], field_name

    def convert_field(self, value, conversion):  # type: ignore[override]
        if conversion is not None:
            raise LabelTemplateError(f"conversions like !{conversion} are not allowed")
        return value

    def format_field(self, value, format_spec):  # type: ignore[override]
        if format_spec:
            raise LabelTemplateError(f"format specs like :{format_spec} are not allowed")
        return value


def render_custom_label(template: str, item: Item, location: Location, qty: int) -> str:
    values = {
        "item.sku": item.sku, "item.name": item.name, "item.unit": item.unit,
        "item.case_size": str(item.case_size), "item.price": str(item.price.quantize(Decimal("0.01"))),
        "item.barcode": item.barcode or "", "location.code": location.code, "location.name": location.name,
        "qty": str(qty),
    }
    try:
        return _LabelFormatter(values).vformat(template, (), {})
    except LabelTemplateError:
        raise
    except (ValueError, IndexError) as exc:  # a stray brace, an empty {}
        raise LabelTemplateError(f"bad label template: {exc}") from exc

