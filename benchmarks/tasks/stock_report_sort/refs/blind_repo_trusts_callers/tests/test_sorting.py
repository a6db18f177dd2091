from datetime import datetime
from decimal import Decimal

import pytest

from stockroom import dashboard, reports
from stockroom.models import Item, Movement


@pytest.fixture
def shop(stocked):
    stocked.add_item(Item("JAM-004", "Apricot jam", Decimal("4.50")))
    return stocked


def test_sort_by_price(shop):
    assert [i.sku for i in shop.list_items(order_by="price")] == ["JAM-004", "TEA-001", "COF-002"]
    assert [i.sku for i in shop.list_items(order_by="name", descending=True)] == ["TEA-001", "COF-002", "JAM-004"]


def test_report_and_dashboard(shop):
    assert [r.sku for r in reports.stock_report(shop, order_by="name")] == ["JAM-004", "COF-002", "TEA-001"]
    status, body = dashboard.stock_view(shop, {"sort": "-price"})
    assert status == 200 and [i["sku"] for i in body["items"]][0] == "COF-002"
    status, body = dashboard.stock_view(shop, {"sort": "colour"})
    assert status == 400 and "error" in body
