from shop.invoice import Invoice
from shop.money import format_price as price


def order_confirmation(customer: str, invoice: Invoice) -> str:
    """The body of the e-mail we send when an order is placed."""
    due = invoice.cart.total_cents + invoice.vat_cents
    return (
        f"Dear {customer},\n\n"
        f"thank you for your order {invoice.number}. "
        f"We will charge {price(due, invoice.currency)} to your card.\n"
    )
