"""Receipts on the till's printer, through CUPS's lp command."""

import subprocess


class PrintError(Exception):
    """lp refused the job; the message is what lp said."""


def print_receipt(cart, printer):
    """Send cart.receipt() to the printer named `printer` (lp -d <printer>, the text on stdin).

    The name goes to lp as one argument, never through a shell: a cashier can type anything."""
    if not printer:
        raise ValueError("no printer name")
    proc = subprocess.run(
        ["lp", "-d", printer],
        input=cart.receipt().encode("utf-8"),
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise PrintError(proc.stderr.decode("utf-8", "replace").strip() or f"lp exited with {proc.returncode}")
