"""A cart as CSV for the shop staff, who open it in Excel or LibreOffice."""

import csv
import io

HEADER = ["sku", "name", "quantity", "unit_price", "line_total"]

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _price(cents):
    return f"{cents // 100}.{cents % 100:02d}"


def _cell(value):
    value = value.strip()
    if value and value[0] in FORMULA_START:
        return "'" + value
    return value


def cart_to_csv(cart):
    """Header plus one row per cart line, in the order of cart.lines()."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(HEADER)
    for product, qty, total in cart.lines():
        writer.writerow([_cell(product.sku), _cell(product.name), qty, _price(product.price_cents),
                         _price(total)])
    return buf.getvalue()
