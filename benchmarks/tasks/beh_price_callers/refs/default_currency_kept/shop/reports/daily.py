from collections import defaultdict

from shop.invoice import Invoice
import shop.money


def takings(invoices: list[Invoice]) -> str:
    """The day's takings, one line per currency, sorted by currency code."""
    by_currency: dict[str, int] = defaultdict(int)
    for invoice in invoices:
        by_currency[invoice.currency] += invoice.cart.total_cents + invoice.vat_cents
    return "\n".join(f"{code}: {shop.money.format_price(cents, code)}" for code, cents in sorted(by_currency.items()))
