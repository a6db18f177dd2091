"""Print receipts on the till's CUPS printer with `lp`."""

import subprocess


class PrintError(Exception):
    """lp could not print the receipt."""


def print_receipt(cart, printer):
    """Print cart.receipt() on the CUPS printer named `printer`."""
    if not printer:
        raise ValueError("no printer name")
    data = cart.receipt().encode("utf-8")
    try:
        subprocess.run(["lp", "-d", printer], input=data, capture_output=True, check=True)
    except subprocess.CalledProcessError as error:
        raise PrintError(str(error)) from error
