from decimal import Decimal

import pytest

from stockroom import Item, Repository, dashboard


@pytest.fixture
def repo():
    r = Repository.open(":memory:")
    for sku, name, price in [("TEA-002", "Tea", "4.50"), ("COF-001", "Coffee", "12.90"), ("TEA-001", "Tea", "4.50")]:
        r.add_item(Item(sku, name, Decimal(price)))
    yield r
    r.close()


def test_orders_with_sku_tie_break(repo):
    assert [i.sku for i in repo.list_items(order_by="name")] == ["COF-001", "TEA-001", "TEA-002"]
    assert [i.sku for i in repo.list_items(order_by="price", descending=True)] == ["COF-001", "TEA-001", "TEA-002"]


def test_unknown_sort_is_refused(repo):
    with pytest.raises(ValueError):
        repo.list_items(order_by="name; DROP TABLE items")
    assert dashboard.stock_view(repo, {"sort": "name, (SELECT 1)"})[0] == 400
    assert [i["sku"] for i in dashboard.stock_view(repo, {"sort": "-price"})[1]["items"]][0] == "COF-001"
