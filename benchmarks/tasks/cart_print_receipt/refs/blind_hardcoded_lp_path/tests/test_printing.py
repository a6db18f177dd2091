import subprocess

import pytest

from shopcart import Cart, Catalog
from shopcart import printing
from shopcart.printing import PrintError, print_receipt


@pytest.fixture
def cart():
    catalog = Catalog.from_dict({"tea": {"name": "Green tea", "price": "2.50"}})
    cart = Cart(catalog)
    cart.add("tea", 2)
    return cart


@pytest.fixture
def calls(monkeypatch):
    seen = []

    def fake_run(args, input=None, capture_output=False, **kwargs):
        seen.append((args, input))
        fail = args[-1] == "nowhere"
        return subprocess.CompletedProcess(args, 1 if fail else 0, b"", b"lp: The printer or class does not exist." if fail else b"")

    monkeypatch.setattr(printing.subprocess, "run", fake_run)
    return seen


@pytest.mark.parametrize("printer", ["Front desk", "Café Bar #2", "till1"])
def test_prints_receipt(calls, cart, printer):
    print_receipt(cart, printer)
    [(args, data)] = calls
    assert args[1:] == ["-d", printer]
    assert data == cart.receipt().encode("utf-8")


def test_lp_failure_raises_print_error(calls, cart):
    with pytest.raises(PrintError, match="does not exist"):
        print_receipt(cart, "nowhere")


def test_empty_printer_name(calls, cart):
    with pytest.raises(ValueError):
        print_receipt(cart, "")
    assert calls == []
