"""Quantities as people type them: "24", "2 cases", "1 case + 5"."""

from __future__ import annotations

import re
from decimal import Decimal

from stockroom.models import Item

_QTY = re.compile(r"(?:(\d*\.?\d+)\s*(?:cases?|cs)\b)?\s*\+?\s*(\d+)?(?:\s*(?:units?|each|ea))?", re.IGNORECASE)


class QuantityError(ValueError):
    pass


def parse_quantity(text: str, item: Item) -> int:
    """Units in a typed quantity: '24' -> 24; '2 cases' -> 2 * case_size; '1 case + 5'."""
    cleaned = text.strip()
    m = _QTY.fullmatch(cleaned)
    if not cleaned or not m or (m.group(1) is None and m.group(2) is None):
        raise QuantityError(f"not a quantity: {text!r} (try 24, 2 cases or 1 case + 5)")
    cases = Decimal(m.group(1) or 0)
    if cases and item.case_size == 1:
        raise QuantityError(f"{item.sku} is not sold by the case")
    case_units = cases * item.case_size
    if case_units != case_units.to_integral_value():
        raise QuantityError(f"{m.group(1)} cases of {item.case_size} is not a whole number of units")
    units = int(case_units) + int(m.group(2) or 0)
    if units == 0:
        raise QuantityError("a quantity of nothing")
    return units


def split_cases(units: int, case_size: int) -> tuple[int, int]:
    """(full cases, loose units) in a number of units."""
    if case_size < 1:
        raise ValueError("case_size must be at least 1")
    return divmod(units, case_size)


def describe(units: int, item: Item) -> str:
    """'2 cases + 3' for items sold by the case, '27' otherwise."""
    if item.case_size == 1:
        return str(units)
    cases, loose = split_cases(units, item.case_size)
    parts = []
    if cases:
        parts.append(f"{cases} case{'s' if cases != 1 else ''}")
    if loose or not cases:
        parts.append(str(loose))
    return " + ".join(parts)


def cases_to_order(units_needed: int, case_size: int) -> int:
    """Whole cases that cover a number of units (suppliers only ship full cases)."""
    if units_needed <= 0:
        return 0
    return -(-units_needed // case_size)
