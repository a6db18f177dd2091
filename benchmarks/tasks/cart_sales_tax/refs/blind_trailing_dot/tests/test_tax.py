import pytest

from shopcart import Cart, Catalog


@pytest.fixture
def cart():
    catalog = Catalog.from_dict({
        "tea": {"name": "Green tea", "price": "2.50"},
        "cake": {"name": "Lemon cake", "price": "4.00"},
        "pot": {"name": "Teapot", "price": "10.00"},
    })
    return Cart(catalog)


def test_tax_whole_percent(cart):
    cart.add("pot")
    assert cart.tax("7") == 70
    assert cart.total_with_tax("7") == 1070


def test_tax_rounds_half_up(cart):
    cart.add("pot")
    assert cart.tax("8.25") == 83
    assert cart.total_with_tax("8.25") == 1083


def test_tax_three_decimals(cart):
    cart.add("cake", 2)
    assert cart.tax("7.125") == 57


def test_tax_after_discount(cart):
    cart.add("pot", 2)
    cart.apply_code("FIVEOFF")
    assert cart.tax("10") == 150


def test_tax_empty_cart(cart):
    assert cart.tax("8.25") == 0
    assert cart.total_with_tax("8.25") == 0


@pytest.mark.parametrize("rate", ["", "abc", "-7", "+7", "1e2", "8.1234", "7%"])
def test_tax_bad_rate(cart, rate):
    cart.add("tea")
    with pytest.raises(ValueError):
        cart.tax(rate)
