import csv
from decimal import Decimal


def totals_by_category(csv_text: str) -> dict[str, float]:
    rows = [r for r in csv.reader(csv_text.splitlines()) if any(cell.strip() for cell in r)]
    if not rows:
        return {}
    header = [h.strip() for h in rows[0]]
    cat, amt = header.index("category"), header.index("amount")
    sums: dict[str, Decimal] = {}
    for row in rows[1:]:
        sums[row[cat]] = sums.get(row[cat], Decimal(0)) + Decimal(row[amt].strip())
    return {k: float(v) for k, v in sums.items()}
