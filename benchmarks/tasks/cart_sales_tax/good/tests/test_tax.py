import pytest

from shopcart import Cart, Catalog


@pytest.fixture
def cart():
    return Cart(Catalog.from_dict({"tea": {"name": "Green tea", "price": "2.50"},
                                   "cake": {"name": "Lemon cake", "price": "4.00"}}))


def test_half_cent_rounds_up(cart):
    cart.add("tea", 4)
    assert cart.tax("8.25") == 83
    assert cart.total_with_tax("8.25") == 1083


def test_tax_after_discount(cart):
    cart.add("cake", 3)
    cart.apply_code("SAVE10")
    assert cart.tax("8.25") == 89


@pytest.mark.parametrize("rate", ["", " 8", "-1", "8.", "1e2", "8.2555", "8,25"])
def test_bad_rate(cart, rate):
    with pytest.raises(ValueError):
        cart.tax(rate)
