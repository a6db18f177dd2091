import pytest

from shopcart import Cart, Catalog


@pytest.fixture
def cart():
    return Cart(Catalog.from_dict({
        "tea": {"name": "Green tea", "price": "2.50"},
        "cake": {"name": "Lemon cake", "price": "4.00"},
    }))


@pytest.mark.parametrize("teas, paid", [(1, 1), (2, 2), (3, 2), (5, 4), (6, 4), (7, 5)])
def test_tea3for2(cart, teas, paid):
    cart.add("tea", teas)
    cart.apply_code("TEA3FOR2")
    assert cart.total() == paid * 250


def test_tea3for2_ignores_other_products(cart):
    cart.add("cake", 3)
    cart.apply_code("TEA3FOR2")
    assert cart.total() == 1200
