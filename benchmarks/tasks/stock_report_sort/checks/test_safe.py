import pytest
from conftest import load

PAYLOADS = [
    "canary()",
    "name, canary()",
    "name,canary()",
    "sku DESC, canary()",
    "(SELECT canary())",
    "CASE WHEN canary() THEN sku ELSE name END",
    "name; DROP TABLE items",
    'name" , canary() , "sku',
    "name` , canary() , `sku",
    "name] , canary() , [sku",
    "name/**/,canary()",
    "reorder_point, canary()",
    "price_cents, canary()",
    "name\n, canary()",
    "sku\n,canary()",
    "price\n, (SELECT canary())",
]


def watch(repo):
    calls = []
    repo.conn.create_function("canary", 0, lambda: calls.append(1) or 1)
    return calls


@pytest.mark.parametrize("payload", PAYLOADS)
def test_sort_column_is_never_sql(repo, payload):
    calls = watch(repo)
    for descending in (False, True):
        try:
            repo.list_items(order_by=payload, descending=descending)
        except Exception:
            pass  # refusing the sort is the right answer
    tables = {r[0] for r in repo.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert not calls and "items" in tables, (
        f"list_items(order_by={payload!r}) ran the text as SQL ({len(calls)} call(s) of a function it named"
        f"{'; the items table is gone' if 'items' not in tables else ''}): SQL injection; map order_by to a "
        "fixed column name")


@pytest.mark.parametrize("payload", PAYLOADS)
def test_dashboard_sort_is_never_sql(repo, payload):
    dashboard = load("stockroom.dashboard")
    calls = watch(repo)
    for sort in (payload, "-" + payload):
        try:
            dashboard.stock_view(repo, {"sort": sort})
        except Exception:
            pass
    assert not calls, (
        f"the dashboard's ?sort={payload} ran as SQL (SQL injection through the query string)")
