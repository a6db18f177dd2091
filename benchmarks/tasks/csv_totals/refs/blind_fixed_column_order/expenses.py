"""Totals per category from a bank's CSV export."""

import csv
import io
from decimal import Decimal


def totals_by_category(csv_text: str) -> dict[str, float]:
    reader = csv.reader(io.StringIO(csv_text))
    header: list[str] | None = None
    totals: dict[str, Decimal] = {}
    for row in reader:
        if not row or all(cell.strip() == "" for cell in row):
            continue  # blank line
        if header is None:
            header = row  # date, description, category, amount
            category_col = -2
            amount_col = -1
            continue
        category = row[category_col]
        amount = Decimal(row[amount_col].strip())
        totals[category] = totals.get(category, Decimal(0)) + amount
    return {category: float(total) for category, total in totals.items()}
