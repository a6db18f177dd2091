import importlib
from decimal import Decimal

import pytest


def load(name):
    try:
        return importlib.import_module(name)
    except Exception as exc:
        pytest.fail(f"could not import {name}: {exc!r}")


@pytest.fixture
def repo():
    """Items with equal names, prices and reorder points, added out of SKU order."""
    sr = load("stockroom")
    r = sr.Repository.open(":memory:")
    for sku, name, price, point in [
        ("TEA-002", "Tea", "4.50", 10), ("COF-001", "Coffee", "12.90", 5), ("TEA-001", "Tea", "4.50", 24),
        ("BIG-001", "Barrel", "100.00", 2), ("MUG-001", "Mug", "6.00", 0), ("BAG-001", "Bag", "4.50", 10),
    ]:
        r.add_item(sr.Item(sku, name, Decimal(price), reorder_point=point))
    r.add_item(sr.Item("OLD-001", "Old stock", Decimal("1.00"), active=False))
    yield r
    r.close()
