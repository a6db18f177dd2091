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
    try:
        return list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        pytest.fail(f"the CSV does not read back ({exc}): a value holding a line break or a lone CR "
                    f"must be quoted, got {text!r}")


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


@pytest.mark.parametrize("column", ["name", "sku"])
@pytest.mark.parametrize("value", ["=1+2", "+1", "-1", "@A1", "\t=1+1", "\r=1+1"],
                         ids=["eq", "plus", "minus", "at", "tab", "cr"])
def test_the_text_behind_the_quote_is_the_catalog_s(value, column):
    """A formula cell gets a ' in front and nothing else changes; whether every such cell gets
    it is the safety checks' matter (test_safe.py), so the value unchanged is accepted here."""
    item = {"name": "Tea", "price": "1.00"}
    sku = "tea"
    if column == "name":
        item["name"] = value
    else:
        sku = value
    rows = export(load(), {sku: item})
    cell = rows[1][1] if column == "name" else rows[1][0]
    assert cell in ("'" + value, value), (
        f"a {column} {value!r} should be written as {chr(39) + value!r}: the quote in front and the "
        f"catalog's text unchanged after it, got {cell!r}")


@pytest.mark.parametrize("name", ["  Tea  ", "Tea\nleaves", "Tea\r\nleaves", "a,b", 'say "hi", then', "x\\"],
                         ids=["spaces", "lf", "crlf", "comma", "quotes", "backslash"])
def test_names_are_written_as_they_are(name):
    rows = export(load(), {"tea": {"name": name, "price": "1.00"}})
    assert len(rows) == 2 and rows[1][:2] == ["tea", name], (
        f"the product name {name!r} should read back unchanged from the CSV, got the rows {rows!r}")


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
