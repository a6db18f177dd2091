from shopcart import Cart, Catalog


def test_every_third_tea_is_free():
    cart = Cart(Catalog.from_dict({"tea": {"name": "Green tea", "price": "2.50"}}))
    cart.add("tea", 6)
    cart.apply_code("TEA3FOR2")
    assert cart.total() == 1000
