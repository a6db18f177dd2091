import importlib
import inspect

import pytest


def load(name):
    try:
        return importlib.import_module(name)
    except Exception as exc:
        pytest.fail(f"could not import {name}: {exc!r}")


def cart(currency, *lines):
    Cart = load("shop.cart").Cart
    c = Cart(currency=currency)
    for name, cents, qty in lines:
        c.add(name, cents, qty)
    return c


@pytest.mark.parametrize(
    ("cents", "currency", "shown"),
    [
        (1250, "EUR", "€12.50"),
        (1250, "GBP", "£12.50"),
        (5, "GBP", "£0.05"),
        (0, "EUR", "€0.00"),
        (100000, "GBP", "£1000.00"),
        (1999, "EUR", "€19.99"),
        (70, "GBP", "£0.70"),
    ],
)
def test_format_price(cents, currency, shown):
    got = load("shop.money").format_price(cents, currency)
    assert got == shown, f"format_price({cents}, {currency!r}) returned {got!r}, expected {shown!r}"


def test_format_price_by_keyword():
    got = load("shop.money").format_price(cents=1250, currency="GBP")
    assert got == "£12.50", f"format_price(cents=1250, currency='GBP') returned {got!r}"


@pytest.mark.parametrize("currency", ["USD", "", "EURO", "GB", "£", "CHF"])
def test_other_currencies_refused(currency):
    with pytest.raises(ValueError):
        load("shop.money").format_price(1250, currency)


def test_currency_is_required():
    format_price = load("shop.money").format_price
    with pytest.raises(TypeError):
        format_price(1250)
    param = inspect.signature(format_price).parameters.get("currency")
    assert param is not None and param.default is inspect.Parameter.empty, (
        "currency must be a required argument of format_price, with no default"
    )


def test_cart_summary_in_pounds():
    got = cart("GBP", ("Tea", 350, 2), ("Mug", 899, 1)).summary()
    want = "2 x Tea: £7.00\n1 x Mug: £8.99\nTotal: £15.99"
    assert got == want, f"a GBP cart's summary is {got!r}, expected {want!r}"


def test_cart_summary_in_euros_as_before():
    got = cart("EUR", ("Tea", 350, 2)).summary()
    assert got == "2 x Tea: €7.00\nTotal: €7.00", f"a EUR cart's summary is {got!r}"


def test_invoice_in_pounds():
    Invoice = load("shop.invoice").Invoice
    got = Invoice("2026-0042", cart("GBP", ("Tea", 350, 2), ("Mug", 899, 1))).render()
    want = "Invoice 2026-0042\n2 x Tea: £7.00\n1 x Mug: £8.99\nTotal: £15.99\nVAT 20%: £3.20\nTo pay: £19.19"
    assert got == want, f"a GBP invoice renders as {got!r}, expected {want!r}"


def test_invoice_in_euros_as_before():
    Invoice = load("shop.invoice").Invoice
    got = Invoice("7", cart("EUR", ("Pen", 125, 4)), vat_rate_percent=10).render()
    want = "Invoice 7\n4 x Pen: €5.00\nTotal: €5.00\nVAT 10%: €0.50\nTo pay: €5.50"
    assert got == want, f"a EUR invoice renders as {got!r}, expected {want!r}"


def test_confirmation_email_in_pounds():
    Invoice = load("shop.invoice").Invoice
    body = load("shop.emails").order_confirmation("Ann", Invoice("2026-0042", cart("GBP", ("Tea", 350, 2))))
    assert "We will charge £8.40 to your card." in body, f"the e-mail for a GBP order says {body!r}"


def test_confirmation_email_in_euros():
    Invoice = load("shop.invoice").Invoice
    body = load("shop.emails").order_confirmation("Ann", Invoice("9", cart("EUR", ("Tea", 350, 2))))
    assert "We will charge €8.40 to your card." in body, f"the e-mail for a EUR order says {body!r}"


def test_daily_takings_each_in_its_currency():
    Invoice = load("shop.invoice").Invoice
    takings = load("shop.reports.daily").takings
    invoices = [
        Invoice("1", cart("GBP", ("Tea", 350, 2))),
        Invoice("2", cart("EUR", ("Pen", 125, 4))),
        Invoice("3", cart("GBP", ("Mug", 899, 1))),
    ]
    got = takings(invoices)
    assert got == "EUR: €6.00\nGBP: £19.19", f"the day's takings read {got!r}"
