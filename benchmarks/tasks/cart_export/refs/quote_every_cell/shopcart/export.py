"""CSV export of a cart for the shop staff's spreadsheets."""

import csv
import io

from shopcart.money import format_cents

HEADER = ["sku", "name", "quantity", "unit_price", "line_total"]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def as_text(cell):
    """A cell a spreadsheet would run as a formula, made plain text."""
    return "'" + str(cell)


def cart_to_csv(cart):
    out = io.StringIO()
    # The default "\r\n" line end makes the writer quote a value holding a lone CR, which a
    # spreadsheet would otherwise read as the end of the row.
    writer = csv.writer(out)
    writer.writerow(HEADER)
    for product, qty, total in cart.lines():
        writer.writerow([as_text(product.sku), as_text(product.name), as_text(qty),
                         as_text(format_cents(product.price_cents).lstrip("$")),
                         as_text(format_cents(total).lstrip("$"))])
    return out.getvalue()
