"""Print receipts on the till's CUPS printer with `lp`."""

import shlex
import subprocess


class PrintError(Exception):
    """lp could not print the receipt."""


def print_receipt(cart, printer):
    """Print cart.receipt() on the CUPS printer named `printer`."""
    if not printer:
        raise ValueError("no printer name")
    data = cart.receipt().encode("utf-8")
    args = shlex.split(f"lp -d '{printer}'")
    result = subprocess.run(args, input=data, capture_output=True)
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", errors="replace").strip()
        raise PrintError(f"lp failed with status {result.returncode}: {message}")
