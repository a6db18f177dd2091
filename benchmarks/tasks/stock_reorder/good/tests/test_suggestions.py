from datetime import date, datetime
from decimal import Decimal

from stockroom import Item, Movement, PurchaseOrder, Repository
from stockroom.reorder import suggest_orders


def test_demand_window_open_orders_and_cases():
    repo = Repository.open(":memory:")
    repo.add_item(Item("TEA-001", "Tea", Decimal("4.50"), case_size=12, reorder_point=10, lead_time_days=7))
    repo.record(Movement("TEA-001", "A1", 96, "receive", datetime(2024, 2, 1)))
    repo.record(Movement("TEA-001", "A1", -42, "ship", datetime(2024, 3, 1, 9)))  # first day of the window
    repo.record(Movement("TEA-001", "A1", -40, "ship", datetime(2024, 3, 29, 9)))  # today: not counted
    repo.add_purchase_order(PurchaseOrder("TEA-001", 5, date(2024, 3, 20)))
    (s,) = suggest_orders(repo, date(2024, 3, 29))
    # daily 1.5: level ceil(10.5) + 10 = 21; 14 + 5 = 19 <= 21; target 21 + 21 = 42: 23 missing, 2 cases
    assert (s.on_hand, s.on_order, s.reorder_level) == (14, 5, 21)
    assert (s.order_units, s.order_cases) == (24, 2)
    repo.close()
