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
