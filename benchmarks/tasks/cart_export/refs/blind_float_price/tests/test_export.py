from shopcart import Cart, Catalog


def make_cart(products):
    cart = Cart(Catalog.from_dict(products))
    for sku in products:
        cart.add(sku, 2)
    return cart


def test_header_and_rows():
    cart = make_cart({"tea": {"name": "Green tea", "price": "2.50"}, "cake": {"name": "Lemon cake", "price": "4"}})
    lines = cart.to_csv().splitlines()
    assert lines == ["sku,name,quantity,unit_price,line_total", "cake,Lemon cake,2,4.0,8.0",
                     "tea,Green tea,2,2.5,5.0"]


def test_formula_names_are_text():
    cart = make_cart({"tea": {"name": "=HYPERLINK(\"http://x\")", "price": "1"}})
    row = cart.to_csv().splitlines()[1]
    assert "'=HYPERLINK" in row
