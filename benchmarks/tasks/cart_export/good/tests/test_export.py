import csv
import io

from shopcart import Cart, Catalog


def test_export_rows_and_formula_names():
    cart = Cart(Catalog.from_dict({"tea": {"name": "=tea", "price": "2.50"}}))
    cart.add("tea", 3)
    rows = list(csv.reader(io.StringIO(cart.to_csv())))
    assert rows == [["sku", "name", "quantity", "unit_price", "line_total"], ["tea", "'=tea", "3", "2.50", "7.50"]]
