import importlib

import pytest


def load():
    try:
        return importlib.import_module("shopcart")
    except Exception as exc:
        pytest.fail(f"could not import the shopcart package: {exc!r}")


def new_cart(shopcart):
    catalog = shopcart.Catalog.from_dict({
        "tea": {"name": "Green tea", "price": "2.50"},
        "cake": {"name": "Lemon cake", "price": "4.00"},
    })
    return shopcart.Cart(catalog)


def test_no_code_no_discount():
    cart = new_cart(load())
    cart.add("tea", 3)
    cart.add("cake")
    assert cart.total() == 1150, f"3 teas and a cake without a code should cost 1150 cents, got {cart.total()}"


def test_percent_code_still_works():
    cart = new_cart(load())
    cart.add("cake", 3)
    cart.apply_code("SAVE10")
    assert cart.total() == 1080, f"SAVE10 on 1200 cents should give 1080, got {cart.total()}"


@pytest.mark.parametrize("jams, total", [(1, 180), (3, 538), (5, 896)])
def test_percent_code_still_rounds_the_discount_down(jams, total):
    """SAVE10 takes 10 % of the subtotal rounded down to the cent (199 -> 19), as before."""
    shopcart = load()
    cart = shopcart.Cart(shopcart.Catalog.from_dict({"jam": {"name": "Jam", "price": "1.99"}}))
    cart.add("jam", jams)
    cart.apply_code("SAVE10")
    assert cart.total() == total, (
        f"SAVE10 on {jams} x 199 cents should give {total} (the discount rounded down, as before), "
        f"got {cart.total()}")


def test_fixed_code_still_works_and_never_goes_negative():
    shopcart = load()
    cart = new_cart(shopcart)
    cart.add("cake", 2)
    cart.apply_code("FIVEOFF")
    assert cart.total() == 300, f"FIVEOFF on 800 cents should give 300, got {cart.total()}"
    cart = new_cart(shopcart)
    cart.add("tea")
    cart.apply_code("FIVEOFF")
    assert cart.total() == 0, f"FIVEOFF on a 250-cent cart should give 0, not {cart.total()}"


def test_unknown_code_still_rejected():
    shopcart = load()
    cart = new_cart(shopcart)
    with pytest.raises(shopcart.UnknownCode):
        cart.apply_code("FREESTUFF")
        pytest.fail("apply_code('FREESTUFF') should raise UnknownCode")


def test_receipt_unchanged():
    cart = new_cart(load())
    cart.add("tea", 2)
    cart.apply_code("SAVE10")
    expected = "2 x Green tea: $5.00\nDiscount (SAVE10): -$0.50\nTotal: $4.50"
    assert cart.receipt() == expected, f"the receipt format changed:\n{cart.receipt()}\nexpected:\n{expected}"
