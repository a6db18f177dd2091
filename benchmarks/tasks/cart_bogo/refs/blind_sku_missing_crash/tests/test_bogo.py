import pytest

from shopcart import Cart, Catalog


@pytest.fixture
def cart():
    catalog = Catalog.from_dict({
        "tea": {"name": "Green tea", "price": "2.50"},
        "cake": {"name": "Lemon cake", "price": "4.00"},
    })
    return Cart(catalog)


@pytest.mark.parametrize("qty, paid", [(1, 1), (2, 2), (3, 2), (5, 4), (6, 4)])
def test_tea_three_for_two(cart, qty, paid):
    cart.add("tea", qty)
    cart.apply_code("TEA3FOR2")
    assert cart.total() == paid * 250


def test_bogo_leaves_other_products_alone(cart):
    cart.add("tea", 3)
    cart.add("cake", 2)
    cart.apply_code("TEA3FOR2")
    assert cart.total() == 2 * 250 + 2 * 400
