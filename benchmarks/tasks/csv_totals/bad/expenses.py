def totals_by_category(csv_text):
    """Sum the `amount` column per `category` of a CSV export."""
    lines = [line.strip() for line in csv_text.splitlines() if line.strip()]
    header = lines[0].split(",")
    cat_i, amount_i = header.index("category"), header.index("amount")
    totals = {}
    for line in lines[1:]:
        fields = line.split(",")
        category = fields[cat_i]
        totals[category] = totals.get(category, 0.0) + float(fields[amount_i])
    return totals
