import importlib
import io
from decimal import Decimal

import pytest


def load(name):
    try:
        return importlib.import_module(name)
    except Exception as exc:
        pytest.fail(f"could not import {name}: {exc!r}")


def item(case_size, sku="TEA-001"):
    return load("stockroom").Item(sku, "Tea", Decimal("4.50"), case_size=case_size)


@pytest.mark.parametrize("text, case_size, units", [
    ("1.5 cases", 12, 18), ("0.5 case", 12, 6), ("2.25 cs", 12, 27), ("1.5 cases + 2", 12, 20),
    ("2.50 cases", 12, 30), ("0.25 cases", 12, 3), ("0.3 cases", 10, 3), ("0.7 cases", 10, 7),
    ("1.1 cases", 10, 11), ("2.6 cases", 5, 13), ("0.1 case", 10, 1), ("10.75 cases", 4, 43),
    ("1.0 case", 12, 12), ("3.000 cases", 7, 21), ("0.5 CASE + 1", 12, 7), ("1.5cs", 12, 18),
    ("0.0 cases + 3", 12, 3), ("0.125 cases", 8, 1), ("0.333 cases", 1000, 333), ("1.2 cases", 15, 18),
    ("0.28 cases", 25, 7), ("1.16 cases", 25, 29), ("2.20 cases", 25, 55), ("4.52 cases + 1", 25, 114),
])
def test_part_cases(text, case_size, units):
    got = load("stockroom.units").parse_quantity(text, item(case_size))
    assert got == units, f"parse_quantity({text!r}) for a case of {case_size} gave {got!r}, expected {units}"


@pytest.mark.parametrize("text, case_size, units", [
    ("24", 12, 24), ("2 cases", 12, 24), ("1 case + 5", 12, 17), ("1 CASE", 12, 12), ("3cs", 12, 36),
    ("5 units", 12, 5), (" 7 ", 12, 7), ("7", 1, 7), ("2 cases 3", 12, 27), ("12 each", 1, 12),
])
def test_whole_quantities_unchanged(text, case_size, units):
    assert load("stockroom.units").parse_quantity(text, item(case_size)) == units, text


@pytest.mark.parametrize("text, case_size", [
    ("1.3 cases", 12), ("0.5 case", 3), ("0.1 case", 12), ("2.01 cases", 10), ("0.05 cases", 10),
    ("2.5", 12), ("1 case + 2.5", 12), ("1.5", 1), ("0.5 case", 1), ("1.5 cases", 1),
    ("", 12), ("two", 12), ("0", 12), ("-3", 12), ("case", 12), ("1. cases", 12), (".5 case", 12),
    ("1,5 cases", 12), ("0.0 cases", 12), ("0 cases + 0", 12), ("1.5.2 cases", 12), ("1e1 cases", 12),
])
def test_not_quantities(text, case_size):
    units = load("stockroom.units")
    with pytest.raises(units.QuantityError):
        got = units.parse_quantity(text, item(case_size))
        pytest.fail(f"parse_quantity({text!r}) for a case of {case_size} should raise QuantityError, gave {got!r}")


def test_returns_an_int():
    got = load("stockroom.units").parse_quantity("1.5 cases", item(12))
    assert type(got) is int, f"parse_quantity should return an int, got {type(got).__name__}"


def test_receive_half_a_case(tmp_path):
    sr, cli = load("stockroom"), load("stockroom.cli")
    db = tmp_path / "stock.db"
    repo = sr.Repository.open(db)
    repo.add_item(item(12))
    repo.close()
    code = cli.run(["--db", str(db), "--user", "ann", "receive", "TEA-001", "A1", "1.5 cases"], out=io.StringIO())
    repo = sr.Repository.open(db)
    try:
        assert code == 0 and repo.stock_on_hand("TEA-001") == 18, f"receive '1.5 cases': exit {code}"
    finally:
        repo.close()
