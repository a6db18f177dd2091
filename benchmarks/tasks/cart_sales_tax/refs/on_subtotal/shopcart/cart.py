"""A customer's cart: quantities per SKU, applied discount codes, totals."""

import re

from shopcart.discounts import discount_for
from shopcart.money import format_cents

_RATE = re.compile(r"(\d+)(?:\.(\d{1,3}))?")


def _rate_thousandths(rate):
    """'8.25' -> 8250: the rate in thousandths of a percent, so the tax stays integer math."""
    match = _RATE.fullmatch(rate) if isinstance(rate, str) else None
    if not match:
        raise ValueError(f"not a tax rate: {rate!r}")
    whole, fraction = match.groups()
    return int(whole) * 1000 + int((fraction or "0").ljust(3, "0"))


class Cart:
    def __init__(self, catalog):
        self.catalog = catalog
        self.quantities = {}  # sku -> quantity
        self.codes = []

    def add(self, sku, qty=1):
        if qty < 1:
            raise ValueError("quantity must be at least 1")
        self.catalog.get(sku)  # raises UnknownProduct
        self.quantities[sku] = self.quantities.get(sku, 0) + qty

    def remove(self, sku, qty=1):
        left = self.quantities.get(sku, 0) - qty
        if left > 0:
            self.quantities[sku] = left
        else:
            self.quantities.pop(sku, None)

    def lines(self):
        """(product, quantity, line total in cents) per product, by SKU."""
        out = []
        for sku, qty in sorted(self.quantities.items()):
            product = self.catalog.get(sku)
            out.append((product, qty, product.price_cents * qty))
        return out

    def subtotal(self):
        return sum(total for _, _, total in self.lines())

    def apply_code(self, code):
        discount_for(code, self)  # raises UnknownCode now rather than at checkout
        if code not in self.codes:
            self.codes.append(code)

    def discount(self):
        return sum(discount_for(code, self) for code in self.codes)

    def total(self):
        return max(self.subtotal() - self.discount(), 0)

    def tax(self, rate):
        """rate percent of total(), rounded to the cent with halves up: total * r / 100000 + 1/2, floored."""
        thousandths = _rate_thousandths(rate)
        return (self.subtotal() * thousandths + 50_000) // 100_000

    def total_with_tax(self, rate):
        return self.total() + self.tax(rate)

    def receipt(self):
        rows = [f"{qty} x {p.name}: {format_cents(t)}" for p, qty, t in self.lines()]
        if self.codes:
            rows.append(f"Discount ({', '.join(self.codes)}): -{format_cents(self.discount())}")
        rows.append(f"Total: {format_cents(self.total())}")
        return "\n".join(rows)
