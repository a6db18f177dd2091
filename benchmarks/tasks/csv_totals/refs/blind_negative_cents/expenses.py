"""Totals per category from a bank's CSV export."""

import csv
import io


def _to_cents(text: str) -> int:
    """Parse a plain decimal amount like '12.50' into integer cents (exact, no float drift)."""
    whole, _, frac = text.strip().partition(".")
    frac = (frac + "00")[:2]
    return int(whole or "0") * 100 + int(frac)


def totals_by_category(csv_text: str) -> dict[str, float]:
    reader = csv.reader(io.StringIO(csv_text))
    header: list[str] | None = None
    totals: dict[str, int] = {}
    for row in reader:
        if not row or all(cell.strip() == "" for cell in row):
            continue  # blank line
        if header is None:
            header = [name.strip() for name in row]
            category_col = header.index("category")
            amount_col = header.index("amount")
            continue
        category = row[category_col]
        totals[category] = totals.get(category, 0) + _to_cents(row[amount_col])
    return {category: cents / 100 for category, cents in totals.items()}
