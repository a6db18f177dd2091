"""The shop's order handling: carts, invoices, e-mails and reports."""
