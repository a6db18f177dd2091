import csv
import io


def totals_by_category(csv_text):
    """Sum the `amount` column per `category` of a CSV export."""
    totals = {}
    for row in csv.DictReader(io.StringIO(csv_text)):
        category = row["category"]
        totals[category] = totals.get(category, 0.0) + float(row["amount"])
    return totals
