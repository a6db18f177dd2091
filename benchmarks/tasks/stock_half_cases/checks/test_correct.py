import importlib
import io
import re
from decimal import Decimal

import pytest


def load(name):
    try:
        return importlib.import_module(name)
    except Exception as exc:
        pytest.fail(f"could not import {name}: {exc!r}")


def item(case_size, sku="TEA-001"):
    return load("stockroom").Item(sku, "Tea", Decimal("4.50"), case_size=case_size)


PART_CASES = [
    ("1.5 cases", 12, 18), ("0.5 case", 12, 6), ("2.25 cs", 12, 27), ("1.5 cases + 2", 12, 20),
    ("2.50 cases", 12, 30), ("0.25 cases", 12, 3), ("0.3 cases", 10, 3), ("0.7 cases", 10, 7),
    ("1.1 cases", 10, 11), ("2.6 cases", 5, 13), ("0.1 case", 10, 1), ("10.75 cases", 4, 43),
    ("1.0 case", 12, 12), ("3.000 cases", 7, 21), ("0.5 CASE + 1", 12, 7), ("1.5cs", 12, 18),
    ("0.0 cases + 3", 12, 3), ("0.125 cases", 8, 1), ("0.333 cases", 1000, 333), ("1.2 cases", 15, 18),
    ("0.28 cases", 25, 7), ("1.16 cases", 25, 29), ("2.20 cases", 25, 55), ("4.52 cases + 1", 25, 114),
]


@pytest.mark.parametrize("text, case_size, units", PART_CASES)
def test_part_cases(text, case_size, units):
    got = load("stockroom.units").parse_quantity(text, item(case_size))
    assert got == units, f"parse_quantity({text!r}) for a case of {case_size} gave {got!r}, expected {units}"


@pytest.mark.parametrize("text, case_size, units", [
    ("24", 12, 24), ("2 cases", 12, 24), ("1 case + 5", 12, 17), ("1 CASE", 12, 12), ("3cs", 12, 36),
    ("5 units", 12, 5), (" 7 ", 12, 7), ("7", 1, 7), ("2 cases 3", 12, 27), ("12 each", 1, 12),
])
def test_whole_quantities_unchanged(text, case_size, units):
    assert load("stockroom.units").parse_quantity(text, item(case_size)) == units, text


NOT_QUANTITIES = [
    ("1.3 cases", 12), ("0.5 case", 3), ("0.1 case", 12), ("2.01 cases", 10), ("0.05 cases", 10),
    ("2.5", 12), ("1 case + 2.5", 12), ("1.5", 1), ("0.5 case", 1), ("1.5 cases", 1),
    ("", 12), ("two", 12), ("0", 12), ("-3", 12), ("case", 12), ("1. cases", 12), (".5 case", 12),
    ("1,5 cases", 12), ("0.0 cases", 12), ("0 cases + 0", 12), ("1.5.2 cases", 12), ("1e1 cases", 12),
    # Loose units are whole even where the cases' part makes the sum whole.
    ("2.0", 12), ("1 case + 2.0", 12), ("1.5 cases + 0.5", 5), ("0.5 case + 0.5", 3),
    # Exact only: as a float this is 1.0, and 12.0 units would pass a float's is_integer().
    ("1.0000000000000001 cases", 12),
]


@pytest.mark.parametrize("text, case_size", NOT_QUANTITIES)
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


def _cases(text):
    found = re.match(r"\s*(\d+\.\d+)", text)
    return found.group(1) if found else None


def test_the_data_tells_exact_arithmetic_from_the_plausible_wrong_ones():
    """No solution is called: this proves that the data above separates exact decimal
    arithmetic from the wrong formulas a careless solution uses, so each of them fails a check."""
    accepted = [(Decimal(n), size) for text, size, _ in PART_CASES if (n := _cases(text))]
    refused = [(Decimal(n), size) for text, size in NOT_QUANTITIES if (n := _cases(text))]
    # Floats with is_integer(): an exact whole number of units that a float misses, and a part
    # unit that a float rounds away.
    assert any(not (float(n) * size).is_integer() for n, size in accepted)
    assert any((float(n) * size).is_integer() and n * size % 1 for n, size in refused)
    # Rounding or truncating the units instead of refusing a part unit.
    assert any(n * size % 1 and round(n * size) >= 1 for n, size in refused)
    # A check on the sum alone: loose units with a point whose sum with the cases is whole.
    assert any("+" in t and "." in t.split("+")[1] for t, _ in NOT_QUANTITIES)
    assert any(re.fullmatch(r"\d+\.0", t) for t, _ in NOT_QUANTITIES)
