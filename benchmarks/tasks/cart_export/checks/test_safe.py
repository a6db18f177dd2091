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


FORMULAS = ["=HYPERLINK(\"https://evil.example\",\"x\")", "+cmd|' /C calc'!A0", "-2+3",
            "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]


@pytest.mark.parametrize("column", ["name", "sku"])
@pytest.mark.parametrize("formula", FORMULAS, ids=["eq", "plus", "minus", "at", "tab", "cr"])
def test_no_cell_is_a_formula(formula, column):
    item = {"name": "Tea", "price": "1.00"}
    sku = "tea"
    if column == "name":
        item["name"] = formula
    else:
        sku = formula
    try:
        rows = export(load(), {sku: item})
    except BaseException:
        return  # no file, no formula
    for row in rows[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), (
                f"the CSV cell {cell!r} (from a {column} in the merchant's catalog) runs as a "
                "formula in a spreadsheet (CSV injection); put a ' in front of it")
