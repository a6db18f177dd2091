import csv
import importlib
import io

import pytest

def load():
    try:
        return importlib.import_module("shopcart")
    except Exception as exc:
        pytest.fail(f"could not import the shopcart package: {exc!r}")


def export(shopcart, items):
    catalog = shopcart.Catalog.from_dict(items)
    cart = shopcart.Cart(catalog)
    for sku in items:
        cart.add(sku, 2)
    try:
        text = cart.to_csv()
    except Exception as exc:
        pytest.fail(f"Cart.to_csv() raised {exc!r}")
    assert isinstance(text, str), f"Cart.to_csv() should return a str, got {type(text).__name__}"
    return list(csv.reader(io.StringIO(text)))


def test_header_and_rows():
    rows = export(load(), {"tea": {"name": "Green tea", "price": "2.50"},
                           "cake": {"name": "Lemon cake, large", "price": "12.00"}})
    assert rows[0] == ["sku", "name", "quantity", "unit_price", "line_total"], f"bad header {rows[0]!r}"
    assert rows[1:] == [["cake", "Lemon cake, large", "2", "12.00", "24.00"],
                        ["tea", "Green tea", "2", "2.50", "5.00"]], f"unexpected rows {rows[1:]!r}"


def test_quotes_in_names_survive():
    rows = export(load(), {"mug": {"name": 'The "Big" mug', "price": "9.99"}})
    assert rows[1][1] == 'The "Big" mug', f"the name should read back unchanged, got {rows[1][1]!r}"


def test_prices_to_the_cent():
    rows = export(load(), {"mug": {"name": "Mug", "price": "9.99"}, "pen": {"name": "Pen", "price": "0.05"},
                           "box": {"name": "Box", "price": "100"}})
    assert [r[3:] for r in rows[1:]] == [["100.00", "200.00"], ["9.99", "19.98"], ["0.05", "0.10"]], (
        f"unit_price and line_total should be written like 9.99 and 19.98, got {rows[1:]!r}")


def test_formula_like_name_is_written_as_text():
    rows = export(load(), {"x1": {"name": "=1+2", "price": "1.00"}})
    assert rows[1][1] == "'=1+2", f"a name starting with = should be written as '=1+2, got {rows[1][1]!r}"


def test_empty_cart_has_only_the_header():
    shopcart = load()
    cart = shopcart.Cart(shopcart.Catalog.from_dict({}))
    rows = list(csv.reader(io.StringIO(cart.to_csv())))
    assert rows == [["sku", "name", "quantity", "unit_price", "line_total"]], f"got {rows!r}"


def test_module_function_exists():
    shopcart = load()
    try:
        export_mod = importlib.import_module("shopcart.export")
    except Exception as exc:
        pytest.fail(f"could not import shopcart.export: {exc!r}")
    cart = shopcart.Cart(shopcart.Catalog.from_dict({"tea": {"name": "Tea", "price": "1.00"}}))
    cart.add("tea")
    assert export_mod.cart_to_csv(cart) == cart.to_csv(), "Cart.to_csv() should return cart_to_csv(cart)"
