from datetime import date, datetime
from decimal import Decimal

from stockroom.cli import run
from stockroom.models import Item, Movement, PurchaseOrder
from stockroom.reorder import suggest_orders

TODAY = date(2024, 4, 1)


def test_fast_mover_is_suggested(repo):
    repo.add_item(Item("TEA-001", "Green tea", Decimal("4.50"), case_size=12, reorder_point=5, lead_time_days=7))
    repo.record(Movement("TEA-001", "A1", 100, "receive", datetime(2024, 3, 1, 8)))
    for day in range(4, 32):  # 2 a day for 28 days
        repo.record(Movement("TEA-001", "A1", -2, "ship", datetime(2024, 3, day, 12)))
    # on hand 44, reorder level 2 * 7 + 5 = 19: nothing yet
    assert suggest_orders(repo, TODAY) == []
    repo.record(Movement("TEA-001", "A1", -30, "ship", datetime(2024, 3, 31, 17)))
    (s,) = suggest_orders(repo, TODAY)
    assert s.sku == "TEA-001" and s.on_hand == 14 and s.order_units == 12 * s.order_cases > 0


def test_open_orders_count(repo):
    repo.add_item(Item("COF-002", "Coffee", Decimal("12.90"), reorder_point=5))
    repo.add_purchase_order(PurchaseOrder("COF-002", 3, date(2024, 3, 30)))
    (s,) = suggest_orders(repo, TODAY)
    assert (s.on_hand, s.on_order, s.reorder_level, s.order_units) == (0, 3, 5, 2)


def test_report_suggest(tmp_path):
    db = str(tmp_path / "stock.db")
    run(["--db", db, "--user", "ann", "add-item", "COF-002", "Coffee", "12.90", "--reorder-point", "5"])
    import io
    out = io.StringIO()
    assert run(["--db", db, "--user", "ann", "report", "suggest"], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["SKU", "On", "hand", "On", "order", "Reorder", "level", "Order", "(units)", "Cases"]
    assert lines[2].split() == ["COF-002", "0", "0", "5", "5", "5"]
