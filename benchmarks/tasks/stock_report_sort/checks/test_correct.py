import io

import pytest
from conftest import load

ORDERS = {
    ("sku", False): ["BAG-001", "BIG-001", "COF-001", "MUG-001", "TEA-001", "TEA-002"],
    ("sku", True): ["TEA-002", "TEA-001", "MUG-001", "COF-001", "BIG-001", "BAG-001"],
    ("name", False): ["BAG-001", "BIG-001", "COF-001", "MUG-001", "TEA-001", "TEA-002"],
    ("name", True): ["TEA-001", "TEA-002", "MUG-001", "COF-001", "BIG-001", "BAG-001"],
    ("price", False): ["BAG-001", "TEA-001", "TEA-002", "MUG-001", "COF-001", "BIG-001"],
    ("price", True): ["BIG-001", "COF-001", "MUG-001", "BAG-001", "TEA-001", "TEA-002"],
    ("reorder_point", False): ["MUG-001", "BIG-001", "COF-001", "BAG-001", "TEA-002", "TEA-001"],
    ("reorder_point", True): ["TEA-001", "BAG-001", "TEA-002", "COF-001", "BIG-001", "MUG-001"],
}


@pytest.mark.parametrize("order_by, descending", list(ORDERS), ids=[f"{k}-{'desc' if d else 'asc'}" for k, d in ORDERS])
def test_list_items_order(repo, order_by, descending):
    got = [i.sku for i in repo.list_items(order_by=order_by, descending=descending)]
    assert got == ORDERS[(order_by, descending)], (
        f"list_items(order_by={order_by!r}, descending={descending}) gave {got}, expected "
        f"{ORDERS[(order_by, descending)]} (equal values in SKU order)")


def test_defaults_and_inactive(repo):
    assert [i.sku for i in repo.list_items()] == ORDERS[("sku", False)]
    assert [i.sku for i in repo.list_items(True)] == ["BAG-001", "BIG-001", "COF-001", "MUG-001", "OLD-001",
                                                      "TEA-001", "TEA-002"]
    got = [i.sku for i in repo.list_items(include_inactive=True, order_by="price")]
    assert got[:2] == ["OLD-001", "BAG-001"], f"inactive items sort with the rest when included: {got}"


@pytest.mark.parametrize("order_by", ["colour", "", "SKU", "price_cents", "active", None, "-price"])
def test_unknown_order_raises_value_error(repo, order_by):
    with pytest.raises(ValueError):
        repo.list_items(order_by=order_by)


def test_stock_report_order(repo):
    reports = load("stockroom.reports")
    rows = reports.stock_report(repo, order_by="price", descending=True)
    assert [r.sku for r in rows] == ORDERS[("price", True)], [r.sku for r in rows]
    assert [r.sku for r in reports.stock_report(repo)] == ORDERS[("sku", False)]
    with pytest.raises(ValueError):
        reports.stock_report(repo, order_by="colour")


@pytest.mark.parametrize("sort, expected", [
    (None, ORDERS[("sku", False)]), ("name", ORDERS[("name", False)]), ("-price", ORDERS[("price", True)]),
    ("reorder_point", ORDERS[("reorder_point", False)]), ("-sku", ORDERS[("sku", True)]),
])
def test_dashboard_sort(repo, sort, expected):
    dashboard = load("stockroom.dashboard")
    status, body = dashboard.stock_view(repo, {} if sort is None else {"sort": sort})
    assert status == 200 and [i["sku"] for i in body["items"]] == expected, (
        f"stock_view with sort={sort!r}: {status} {[i['sku'] for i in body.get('items', [])]}")


@pytest.mark.parametrize("sort", ["colour", "--name", "-", "Name", "price desc"])
def test_dashboard_unknown_sort_is_400(repo, sort):
    dashboard = load("stockroom.dashboard")
    try:
        status, body = dashboard.stock_view(repo, {"sort": sort})
    except Exception as exc:
        pytest.fail(f"stock_view with sort={sort!r} raised {exc!r}; an unknown sort is a 400")
    assert status == 400 and isinstance(body.get("error"), str), f"sort={sort!r}: {status} {body}"


def test_dashboard_empty_sort(repo):
    """`?sort=` with nothing after it: the prompt says neither that it is unknown nor that it is
    the same as no sort, so a 400 with an error and the SKU order are both accepted."""
    dashboard = load("stockroom.dashboard")
    try:
        status, body = dashboard.stock_view(repo, {"sort": ""})
    except Exception as exc:
        pytest.fail(f"stock_view with an empty sort raised {exc!r}")
    if status == 400:
        assert isinstance(body.get("error"), str), f"an empty sort answered 400 without an error: {body}"
    else:
        assert status == 200 and [i["sku"] for i in body["items"]] == ORDERS[("sku", False)], (
            f"an empty sort should be a 400 or the SKU order, got {status} {body}")


def test_dashboard_low_filter_still_works(repo):
    dashboard = load("stockroom.dashboard")
    status, body = dashboard.stock_view(repo, {"low": "1", "sort": "-name"})
    assert status == 200 and [i["sku"] for i in body["items"]] == ["TEA-001", "TEA-002", "COF-001", "BIG-001", "BAG-001"], body


@pytest.mark.parametrize("args, expected", [
    ([], ORDERS[("sku", False)]), (["--sort", "price"], ORDERS[("price", False)]),
    (["--sort", "name", "--desc"], ORDERS[("name", True)]), (["--sort", "sku", "--desc"], ORDERS[("sku", True)]),
    (["--sort", "reorder_point"], ["BAG-001", "BIG-001", "COF-001", "MUG-001", "TEA-001", "TEA-002"]),
])
def test_cli_sort(tmp_path, args, expected):
    sr, cli = load("stockroom"), load("stockroom.cli")
    from decimal import Decimal
    db = tmp_path / "stock.db"
    r = sr.Repository.open(db)
    for sku, name, price in [("TEA-002", "Tea", "4.50"), ("COF-001", "Coffee", "12.90"), ("TEA-001", "Tea", "4.50"),
                             ("BIG-001", "Barrel", "100.00"), ("MUG-001", "Mug", "6.00"), ("BAG-001", "Bag", "4.50")]:
        r.add_item(sr.Item(sku, name, Decimal(price)))
    r.close()
    out = io.StringIO()
    code = cli.run(["--db", str(db), "--user", "ann", "report", "stock", *args], out=out)
    skus = [line.split()[0] for line in out.getvalue().splitlines()[2:]]
    assert code == 0 and skus == expected, f"stockroom report stock {' '.join(args)}: {code} {skus}"
