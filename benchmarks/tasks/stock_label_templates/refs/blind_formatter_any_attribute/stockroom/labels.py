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


import string


class LabelTemplateError(ValueError):
    """A label template the label printer cannot use."""


class _LabelFormatter(string.Formatter):
    """str.format, limited to the label's objects and without private attributes."""

    def get_field(self, field_name, args, kwargs):
        first, *rest = field_name.split(".")
        if first not in kwargs or any(part.startswith("_") or not part for part in rest):
            raise LabelTemplateError(f"unknown placeholder {{{field_name}}}")
        return super().get_field(field_name, args, kwargs)

    def format_field(self, value, format_spec):
        if format_spec:
            raise LabelTemplateError("format specs are not allowed in label templates")
        return super().format_field(value, format_spec)

    def convert_field(self, value, conversion):
        if conversion:
            raise LabelTemplateError("conversions are not allowed in label templates")
        return value


class _PriceItem:
    """The item as the template sees it: the price with two decimals."""

    def __init__(self, item):
        self._item = item

    def __getattr__(self, name):
        if name == "price":
            return f"{self._item.price:.2f}"
        if name == "barcode":
            return self._item.barcode or ""
        return getattr(self._item, name)


def render_custom_label(template: str, item: Item, location: Location, qty: int) -> str:
    try:
        return _LabelFormatter().format(template, item=_PriceItem(item), location=location, qty=qty)
    except LabelTemplateError:
        raise
    except (ValueError, KeyError, IndexError, AttributeError) as exc:
        raise LabelTemplateError(f"bad label template: {exc}") from None
