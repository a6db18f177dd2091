"""Totals per category from a bank's CSV export."""

import csv
import io
from decimal import Decimal


def totals_by_category(csv_text: str) -> dict[str, float]:
    reader = csv.reader(io.StringIO(csv_text))
    header: list[str] | None = None
    totals: dict[str, Decimal] = {}
    for row in reader:
        if header is None:
            header = [name.strip() for name in row]
            category_col = header.index("category")
            amount_col = header.index("amount")
            continue
        category = row[category_col]
        amount = Decimal(row[amount_col].strip())
        totals[category] = totals.get(category, Decimal(0)) + amount
    return {category: float(total) for category, total in totals.items()}
