"""The supplier's item list into the repository.

The supplier sends a CSV file with a header row. Columns, in any order and letter case:
`sku`, `name`, `price` (required) and `unit`, `case_size`, `reorder_point`, `barcode`
(optional); other columns are ignored. Values are trimmed. Blank lines are skipped.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from stockroom.barcodes import BarcodeError, check_gtin
from stockroom.db import Repository
from stockroom.models import Item, ValidationError
from stockroom.money import MoneyError, parse_money

REQUIRED = ("sku", "name", "price")
OPTIONAL = ("unit", "case_size", "reorder_point", "barcode")


class ItemImportError(Exception):
    """A problem in the file, with the line it is on (the header is line 1)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass
class ImportResult:
    added: int = 0
    updated: int = 0


def _int(value: str, name: str, line: int, minimum: int) -> int:
    if not value.isdigit() or int(value) < minimum:
        raise ItemImportError(line, f"{name} must be a whole number, at least {minimum}: {value!r}")
    return int(value)


def _item(record: dict[str, str], line: int) -> Item:
    try:
        price: Decimal = parse_money(record["price"])
    except MoneyError as exc:
        raise ItemImportError(line, str(exc)) from exc
    barcode = record.get("barcode") or None
    if barcode is not None:
        try:
            check_gtin(barcode)
        except BarcodeError as exc:
            raise ItemImportError(line, str(exc)) from exc
    try:
        return Item(
            sku=record["sku"].upper(),
            name=record["name"],
            price=price,
            unit=record.get("unit") or "each",
            case_size=_int(record.get("case_size") or "1", "case_size", line, 1),
            reorder_point=_int(record.get("reorder_point") or "0", "reorder_point", line, 0),
            barcode=barcode,
        )
    except ValidationError as exc:
        raise ItemImportError(line, str(exc)) from exc


def read_items(path: str | Path) -> list[Item]:
    """Every item in the file, checked; the first problem raises ItemImportError.

    The file is CSV as Excel writes it: UTF-8 with or without a byte order mark, and quoted
    fields that may hold commas, doubled quotes and line breaks. Lines are counted in the
    file, so a record that spans lines moves the numbers of the records after it.
    """
    # Text mode reads a CRLF inside a quoted name as "\n", like every other line end.
    with open(path, encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header_row = next(reader, None)
        if header_row is None:
            raise ItemImportError(1, "the file is empty")
        header = [h.strip().lower() for h in header_row]
        missing = [c for c in REQUIRED if c not in header]
        if missing:
            raise ItemImportError(1, f"missing column(s): {', '.join(missing)}")
        items: list[Item] = []
        seen: dict[str, int] = {}
        for row in reader:
            number = reader.line_num
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            values = [v.strip() for v in row]
            if len(values) != len(header):
                raise ItemImportError(number, f"expected {len(header)} values, found {len(values)}")
            record = dict(zip(header, values))
            item = _item(record, number)
            if item.sku in seen:
                raise ItemImportError(number, f"{item.sku} is already on line {seen[item.sku]}")
            seen[item.sku] = number
            items.append(item)
    return items


def import_items(repo: Repository, path: str | Path) -> ImportResult:
    """Add new items and update known ones (name, price, unit, case size, ...); all or nothing."""
    items = read_items(path)
    result = ImportResult()
    for item in items:
        if repo.get_item(item.sku) is None:
            result.added += 1
        else:
            result.updated += 1
        repo.save_item(item)
    return result
