import pytest
from conftest import a_cart, load

NAMES = ["Front", "Front desk", "Café Bar #2", "Kasse 2 (unten)", "  padded  ", "a\\b", "O'Brien", 'Bar "2"',
         "Till $HOME", "50% off"]


@pytest.mark.parametrize("printer", NAMES)
def test_prints_the_receipt_on_the_named_printer(lp, printer):
    shopcart, printing = load()
    cart = a_cart(shopcart)
    try:
        printing.print_receipt(cart, printer)
    except Exception as exc:
        pytest.fail(f"print_receipt(cart, {printer!r}) raised {exc!r} though lp succeeded")
    jobs = lp()
    assert len(jobs) == 1, f"lp should run once, it ran {len(jobs)} time(s)"
    args, data = jobs[0]
    assert args == ["-d", printer], f"lp should get exactly ['-d', {printer!r}], got {args!r}"
    assert data == cart.receipt().encode("utf-8"), (
        f"lp's standard input should be exactly cart.receipt() in UTF-8, got {data!r}")


def test_receipt_bytes_are_utf8(lp):
    shopcart, printing = load()
    cart = a_cart(shopcart, "Crème brûlée ☕")
    printing.print_receipt(cart, "Front")
    [(args, data)] = lp()
    assert data == "2 x Crème brûlée ☕: $5.00\nTotal: $5.00".encode("utf-8"), f"got {data!r}"


def test_failure_raises_print_error_with_lps_message(lp, monkeypatch):
    shopcart, printing = load()
    assert isinstance(getattr(printing, "PrintError", None), type) and issubclass(printing.PrintError, Exception), (
        "shopcart.printing should define PrintError, a subclass of Exception")
    monkeypatch.setenv("LP_EXIT", "1")
    monkeypatch.setenv("LP_STDERR", "lp: The printer or class does not exist.\n")
    with pytest.raises(printing.PrintError) as info:
        printing.print_receipt(a_cart(shopcart), "Nowhere")
    assert "The printer or class does not exist." in str(info.value), (
        f"PrintError's message should contain lp's error, got {str(info.value)!r}")
    monkeypatch.setenv("LP_EXIT", "3")
    monkeypatch.setenv("LP_STDERR", "lp: Unable to connect")
    with pytest.raises(printing.PrintError):
        printing.print_receipt(a_cart(shopcart), "Front")


def test_empty_name_runs_nothing(lp):
    shopcart, printing = load()
    with pytest.raises(ValueError):
        printing.print_receipt(a_cart(shopcart), "")
    assert lp() == [], "an empty printer name should not run lp"


def test_success_returns_none(lp):
    shopcart, printing = load()
    assert printing.print_receipt(a_cart(shopcart), "Front") is None
