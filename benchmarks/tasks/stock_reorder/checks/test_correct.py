import importlib
import io
import re
from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest

TODAY = date(2024, 3, 29)


def load(name):
    try:
        return importlib.import_module(name)
    except Exception as exc:
        pytest.fail(f"could not import {name}: {exc!r}")


def at(day, hour=10):
    return datetime(day.year, day.month, day.day, hour)


def build(repo, today=TODAY):
    """Items whose expected suggestions are worked out in the comments (days=28, cover_days=14)."""
    sr = load("stockroom")
    d = lambda n: today - timedelta(days=n)  # noqa: E731
    add, rec = repo.add_item, repo.record

    # TEA-001: case 12, lead 7, safety 10. Shipped in the window: 28 (first day) + 14 (yesterday)
    # = 42, daily 1.5; shipments 29 days ago and today do not count, nor the adjustment and the
    # transfer. Level ceil(10.5) + 10 = 21. On hand 13, on order 5 (a received order does not
    # count): 18 <= 21. Target 21 + ceil(21) = 42: 24 missing, 2 cases = 24 units.
    add(sr.Item("TEA-001", "Green tea", Decimal("4.50"), case_size=12, reorder_point=10, lead_time_days=7))
    rec(sr.Movement("TEA-001", "A1", 240, "receive", at(d(40))))
    rec(sr.Movement("TEA-001", "B2", 20, "receive", at(d(40))))
    rec(sr.Movement("TEA-001", "A1", -100, "ship", at(d(29), 23)))
    rec(sr.Movement("TEA-001", "A1", -28, "ship", at(d(28), 0)))
    rec(sr.Movement("TEA-001", "A1", -14, "ship", at(d(1), 23)))
    rec(sr.Movement("TEA-001", "A1", -5, "adjust", at(d(10))))
    rec(sr.Movement("TEA-001", "B2", -20, "transfer-out", at(d(9))))
    rec(sr.Movement("TEA-001", "A1", 20, "transfer-in", at(d(9))))
    rec(sr.Movement("TEA-001", "A1", -100, "ship", at(today, 0)))
    repo.add_purchase_order(sr.PurchaseOrder("TEA-001", 5, d(3)))
    done = repo.add_purchase_order(sr.PurchaseOrder("TEA-001", 50, d(20)))
    repo.mark_received(done.id, d(15))

    # COF-002: lead 3, safety 5, 28 shipped: daily 1, level 8; on hand exactly 8 -> at the
    # level, so ordered: target 8 + 14 = 22, 14 units.
    add(sr.Item("COF-002", "Coffee", Decimal("12.90"), reorder_point=5, lead_time_days=3))
    rec(sr.Movement("COF-002", "A1", 36, "receive", at(d(30))))
    for n in range(1, 29, 7):
        rec(sr.Movement("COF-002", "A1", -7, "ship", at(d(n))))

    # MUG-003: case 6, lead 10, no safety: 14 shipped, daily 0.5, level 5; on hand 6 > 5.
    add(sr.Item("MUG-003", "Mug", Decimal("6.00"), case_size=6, lead_time_days=10))
    rec(sr.Movement("MUG-003", "A1", 20, "receive", at(d(30))))
    rec(sr.Movement("MUG-003", "A1", -14, "ship", at(d(5))))

    # BAG-004: no demand, safety 4, case 10, on hand 3: level 4, target 4: 1 missing -> 1 case.
    add(sr.Item("BAG-004", "Bag", Decimal("1.00"), case_size=10, reorder_point=4))
    rec(sr.Movement("BAG-004", "A1", 3, "receive", at(d(50))))

    # BOX-005: no demand, safety 4, on hand 4: at the level, but nothing to order: not listed.
    add(sr.Item("BOX-005", "Box", Decimal("1.00"), reorder_point=4))
    rec(sr.Movement("BOX-005", "A1", 4, "receive", at(d(50))))

    # JAR-006: 10 shipped, lead 4: 40/28 -> level 2 (rounded up), on hand 1;
    # target 2 + ceil(140/28 = 5) = 7: 6 units.
    add(sr.Item("JAR-006", "Jar", Decimal("2.00"), lead_time_days=4))
    rec(sr.Movement("JAR-006", "A1", 11, "receive", at(d(40))))
    rec(sr.Movement("JAR-006", "A1", -10, "ship", at(d(2))))

    # PAN-008: no demand, lead 60, safety 5, on hand 3: level 5, target 5: 2 units.
    add(sr.Item("PAN-008", "Pan", Decimal("9.00"), reorder_point=5, lead_time_days=60))
    rec(sr.Movement("PAN-008", "A1", 3, "receive", at(d(50))))

    # OLD-007: discontinued: never suggested.
    add(sr.Item("OLD-007", "Old", Decimal("1.00"), reorder_point=50, active=False))
    return repo


EXPECTED = [
    ("BAG-004", 3, 0, 4, 10, 1),
    ("COF-002", 8, 0, 8, 14, 14),
    ("JAR-006", 1, 0, 2, 6, 6),
    ("PAN-008", 3, 0, 5, 2, 2),
    ("TEA-001", 13, 5, 21, 24, 2),
]


@pytest.fixture
def repo():
    r = load("stockroom").Repository.open(":memory:")
    yield build(r)
    r.close()


def fields(s):
    return (s.sku, s.on_hand, s.on_order, s.reorder_level, s.order_units, s.order_cases)


def suggest(repo, *args, **kw):
    return [fields(s) for s in load("stockroom.reorder").suggest_orders(repo, *args, **kw)]


def test_suggestions(repo):
    got = suggest(repo, TODAY)
    assert got == EXPECTED, f"suggest_orders(repo, {TODAY}) gave {got}, expected {EXPECTED}"


def test_suggestion_is_a_frozen_dataclass(repo):
    import dataclasses
    (first, *_) = load("stockroom.reorder").suggest_orders(repo, TODAY)
    assert dataclasses.is_dataclass(first), "Suggestion should be a dataclass"
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.order_units = 0


def test_a_day_later_the_window_moves(repo):
    # Tomorrow: TEA-001's first-day 28 leave the window and today's 100 enter it: 114 shipped,
    # daily 114/28, level ceil(28.5) + 10 = 39; target 39 + ceil(57) = 96; 78 missing: 7 cases.
    got = dict((s[0], s) for s in suggest(repo, TODAY + timedelta(days=1)))
    assert got["TEA-001"] == ("TEA-001", 13, 5, 39, 84, 7), f"suggest_orders the next day: {got.get('TEA-001')}"


@pytest.mark.parametrize("days, expected_level", [(7, 24), (1, 108), (2, 59)])
def test_days_parameter(repo, days, expected_level):
    # TEA-001 shipped 14 yesterday and nothing else in the last 7 days (today's 100 is excluded):
    # daily 14 / days, times the lead time of 7, plus the safety stock of 10.
    got = dict((s[0], s) for s in suggest(repo, TODAY, days=days))
    assert got["TEA-001"][3] == expected_level, f"suggest_orders(days={days}): TEA-001 {got.get('TEA-001')}"


def test_cover_days_parameter(repo):
    got = dict((s[0], s) for s in suggest(repo, TODAY, cover_days=0))
    # COF-002: target = level 8, position 8: nothing missing -> not listed; TEA-001: 21 - 18 = 3 -> 1 case
    assert "COF-002" not in got and got["TEA-001"][4:] == (12, 1), f"suggest_orders(cover_days=0): {got}"


# Items whose demand times a number of days is a whole number exactly, but not as a float (or a
# Decimal of 28 digits) divided first: shipped, lead time -> (level, order units). Each has no
# stock left, case 1, no safety stock; days=28, cover_days=14.
EXACT = {"EXA-058": (58, 14, 29, 58), "EXA-036": (36, 21, 27, 45), "EXA-029": (29, 28, 29, 44)}


def test_daily_demand_is_kept_exact():
    sr = load("stockroom")
    r = sr.Repository.open(":memory:")
    try:
        for sku, (shipped, lead, _, _) in EXACT.items():
            r.add_item(sr.Item(sku, "Exact", Decimal("1.00"), lead_time_days=lead))
            r.record(sr.Movement(sku, "A1", shipped, "receive", at(TODAY - timedelta(days=40))))
            r.record(sr.Movement(sku, "A1", -shipped, "ship", at(TODAY - timedelta(days=5))))
        got = [fields(s) for s in load("stockroom.reorder").suggest_orders(r, TODAY)]
    finally:
        r.close()
    expected = [(sku, 0, 0, level, units, units) for sku, (_, _, level, units) in sorted(EXACT.items())]
    assert got == expected, (
        f"the daily demand is kept exact: shipped/28 times the lead time or the cover days is a "
        f"whole number here, rounded up it stays that number; expected {expected}, got {got}")


def test_the_exact_data_tells_exact_arithmetic_from_floats_and_decimals():
    """No solution is called: this proves that EXACT separates exact arithmetic from dividing
    first as a float or as a 28-digit Decimal, so either fails test_daily_demand_is_kept_exact."""
    import math
    from decimal import Decimal as D
    from fractions import Fraction

    def level(shipped, lead, daily):
        return math.ceil(daily(shipped) * lead)

    exact = [level(s, lead, lambda n: Fraction(n, 28)) for s, lead, _, _ in EXACT.values()]
    assert exact == [lv for _, _, lv, _ in EXACT.values()], exact
    for daily in (lambda n: n / 28, lambda n: D(n) / D(28)):
        assert [level(s, lead, daily) for s, lead, _, _ in EXACT.values()] != exact


def test_nothing_to_suggest_on_an_empty_repository():
    r = load("stockroom").Repository.open(":memory:")
    try:
        assert load("stockroom.reorder").suggest_orders(r, TODAY) == []
    finally:
        r.close()


def test_old_reorder_list_unchanged(repo):
    lines = load("stockroom.reorder").reorder_list(repo)
    assert [(line.sku, line.order_units) for line in lines] == [("BAG-004", 10), ("BOX-005", 4), ("PAN-008", 7)], lines


def test_cli_report_suggest(tmp_path):
    sr, cli = load("stockroom"), load("stockroom.cli")
    db = tmp_path / "stock.db"
    r = sr.Repository.open(db)
    build(r, today=date.today())
    r.close()
    out = io.StringIO()
    code = cli.run(["--db", str(db), "--user", "ann", "report", "suggest"], out=out)
    lines = out.getvalue().splitlines()
    rows = [line.split() for line in lines[2:]]
    expected = [[str(v) for v in row] for row in EXPECTED]
    assert code == 0 and rows == expected, f"stockroom report suggest: {code}\n{out.getvalue()}"
    header = [h for h in re.split(r"\s{2,}", lines[0].strip())]
    assert header == ["SKU", "On hand", "On order", "Reorder level", "Order (units)", "Cases"], lines[0]
    # numbers right-aligned: each number ends where its column's heading ends
    ends = [m.end() for m in re.finditer(r"\S+(?: \S+)*", lines[0])]
    for line in lines[2:]:
        cells = list(re.finditer(r"\S+", line))
        assert [c.end() for c in cells[1:]] == ends[1:], f"numbers should be right-aligned under their headings:\n{out.getvalue()}"
        assert cells[0].start() == 0, f"the SKU column is left-aligned:\n{out.getvalue()}"


@pytest.mark.parametrize("args, heading", [
    (["stock"], "SKU"), (["value"], "SKU"), (["low"], "SKU"), (["reorder"], "SKU"), (["history", "TEA-001"], "When"),
])
def test_other_reports_unchanged(tmp_path, args, heading):
    sr, cli = load("stockroom"), load("stockroom.cli")
    db = tmp_path / "stock.db"
    r = sr.Repository.open(db)
    build(r, today=date.today())
    r.close()
    out = io.StringIO()
    code = cli.run(["--db", str(db), "--user", "ann", "report", *args], out=out)
    assert code == 0 and out.getvalue().split()[0] == heading, f"stockroom report {' '.join(args)}: {code} {out.getvalue()!r}"
