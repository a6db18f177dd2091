"""A customer's cart: quantities per SKU, applied discount codes, totals."""

import re

from shopcart.discounts import discount_for
from shopcart.money import format_cents

_RATE = re.compile(r"([0-9]+)(?:\.([0-9]{0,3}))?")


def _rate_thousandths(rate):
    """'8.25' -> 8250: the rate in thousandths of a percent, exactly."""
    if not isinstance(rate, str):
        raise ValueError(f"rate must be a string, not {type(rate).__name__}")
    match = _RATE.fullmatch(rate)
    if not match:
        raise ValueError(f"not a tax rate: {rate!r}")
    whole, fraction = match.groups()
    return int(whole) * 1000 + int((fraction or "").ljust(3, "0"))


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
        """Sales tax in cents: `rate` percent of total(), rounded half up."""
        thousandths = _rate_thousandths(rate)
        # total * rate% = total * thousandths / 100_000; round half up in integers.
        return (self.total() * thousandths * 2 + 100_000) // 200_000

    def total_with_tax(self, rate):
        return self.total() + self.tax(rate)

    def receipt(self):
        rows = [f"{qty} x {p.name}: {format_cents(t)}" for p, qty, t in self.lines()]
        if self.codes:
            rows.append(f"Discount ({', '.join(self.codes)}): -{format_cents(self.discount())}")
        rows.append(f"Total: {format_cents(self.total())}")
        return "\n".join(rows)
