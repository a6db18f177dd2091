"""Totals per category from a bank's CSV export."""

import csv
import io


def totals_by_category(csv_text: str) -> dict[str, float]:
    reader = csv.reader(io.StringIO(csv_text))
    header: list[str] | None = None
    totals: dict[str, float] = {}
    for row in reader:
        if not row or all(cell.strip() == "" for cell in row):
            continue  # blank line
        if header is None:
            header = [name.strip() for name in row]
            category_col = header.index("category")
            amount_col = header.index("amount")
            continue
        category = row[category_col]
        amount = float(row[amount_col])
        totals[category] = totals.get(category, 0.0) + amount
    return totals
