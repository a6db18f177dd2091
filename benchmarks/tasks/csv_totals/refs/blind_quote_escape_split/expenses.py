"""Totals per category from a bank's CSV export."""

from decimal import Decimal


def _split_row(line: str) -> list[str]:
    """Split one CSV line into fields, honouring quoted fields that contain commas."""
    fields: list[str] = []
    i = 0
    n = len(line)
    while True:
        if i < n and line[i] == '"':
            end = line.index('"', i + 1)
            fields.append(line[i + 1:end])
            comma = line.find(",", end + 1)
        else:
            comma = line.find(",", i)
            fields.append(line[i:] if comma == -1 else line[i:comma])
        if comma == -1:
            return fields
        i = comma + 1


def totals_by_category(csv_text: str) -> dict[str, float]:
    header: list[str] | None = None
    totals: dict[str, Decimal] = {}
    for line in csv_text.splitlines():
        if not line.strip():
            continue  # blank line
        row = _split_row(line)
        if header is None:
            header = [name.strip() for name in row]
            category_col = header.index("category")
            amount_col = header.index("amount")
            continue
        category = row[category_col]
        amount = Decimal(row[amount_col].strip())
        totals[category] = totals.get(category, Decimal(0)) + amount
    return {category: float(total) for category, total in totals.items()}
