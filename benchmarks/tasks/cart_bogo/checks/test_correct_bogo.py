import importlib

import pytest

TEA, CAKE = 250, 400


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


def total_with(shopcart, code, items):
    cart = new_cart(shopcart)
    for sku, qty in items.items():
        cart.add(sku, qty)
    try:
        cart.apply_code(code)
    except Exception as exc:
        pytest.fail(f"cart.apply_code({code!r}) raised {exc!r}")
    return cart.total()


@pytest.mark.parametrize("teas, paid", [(1, 1), (2, 2), (3, 2), (4, 3), (5, 4), (6, 4), (9, 6)])
def test_tea3for2(teas, paid):
    total = total_with(load(), "TEA3FOR2", {"tea": teas})
    assert total == paid * TEA, (
        f"with TEA3FOR2, {teas} teas should cost {paid} teas ({paid * TEA} cents), got {total}")


def test_tea3for2_only_discounts_tea():
    total = total_with(load(), "TEA3FOR2", {"cake": 3})
    assert total == 3 * CAKE, f"TEA3FOR2 should not discount cakes: 3 cakes should cost {3 * CAKE}, got {total}"
    total = total_with(load(), "TEA3FOR2", {"cake": 1, "tea": 3})
    assert total == CAKE + 2 * TEA, (
        f"TEA3FOR2 with 1 cake and 3 teas should cost 1 cake + 2 teas ({CAKE + 2 * TEA}), got {total}")


def test_other_bogo_rules(monkeypatch):
    shopcart = load()
    codes = importlib.import_module("shopcart.discounts").CODES
    monkeypatch.setitem(codes, "CAKE4FOR3", {"kind": "bogo", "sku": "cake", "buy": 3})
    for cakes, paid in [(3, 3), (4, 3), (8, 6)]:
        total = total_with(shopcart, "CAKE4FOR3", {"cake": cakes})
        assert total == paid * CAKE, (
            f"a bogo rule with buy=3 on cake: {cakes} cakes should cost {paid} cakes, got {total}")


def test_receipt_shows_bogo_discount():
    shopcart = load()
    cart = new_cart(shopcart)
    cart.add("tea", 3)
    try:
        cart.apply_code("TEA3FOR2")
        receipt = cart.receipt()
    except Exception as exc:
        pytest.fail(f"a cart with 3 teas and the code TEA3FOR2 could not print its receipt: {exc!r}")
    assert "Total: $5.00" in receipt, f"the receipt for 3 teas with TEA3FOR2 should end with a $5.00 total:\n{receipt}"
