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
    """The data rows of the cart's CSV, read as it is and as a spreadsheet splits it, or []
    when to_csv refused the catalog (no file, no formula). A spreadsheet ends a row at a lone
    carriage return as at a line feed, so the text is also read with universal newlines: a CR
    left unquoted in a value starts a new row there, as it does in Excel or LibreOffice."""
    catalog = shopcart.Catalog.from_dict(items)
    cart = shopcart.Cart(catalog)
    for sku in items:
        cart.add(sku, 2)
    try:
        text = cart.to_csv()
    except Exception:
        return []
    if not isinstance(text, str):
        return []
    rows = list(csv.reader(io.StringIO(text, newline=None)))[1:]
    try:
        rows += list(csv.reader(io.StringIO(text, newline="")))[1:]
    except csv.Error:
        pass  # a lone CR outside quotes: the universal reading above has its rows
    return rows


FORMULAS = ["=HYPERLINK(\"https://evil.example\",\"x\")", "+cmd|' /C calc'!A0", "-2+3",
            "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1",
            # A formula after a comma, a quote or a line break inside the value: CSV written
            # without quoting makes it a cell (or a row) of its own, starting with '='.
            "Tea,=1+1", 'Tea",=1+1', "Tea\n=1+1", "Tea\r\n=1+1", "Tea\r=1+1"]


@pytest.mark.parametrize("column", ["name", "sku"])
@pytest.mark.parametrize("formula", FORMULAS, ids=["eq", "plus", "minus", "at", "tab", "cr",
                                                   "comma", "quote-comma", "lf", "crlf", "cr-inside"])
def test_no_cell_is_a_formula(formula, column):
    item = {"name": "Tea", "price": "1.00"}
    sku = "tea"
    if column == "name":
        item["name"] = formula
    else:
        sku = formula
    rows = export(load(), {sku: item})
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), (
                f"the CSV cell {cell!r} (from a {column} in the merchant's catalog) runs as a "
                "formula in a spreadsheet (CSV injection); put a ' in front of it")
