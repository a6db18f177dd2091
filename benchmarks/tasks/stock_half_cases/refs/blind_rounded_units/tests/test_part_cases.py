from decimal import Decimal

import pytest

from stockroom.models import Item
from stockroom.units import QuantityError, parse_quantity

TEA = Item("TEA-001", "Tea", Decimal("4.50"), case_size=12)
TEN = Item("BOX-010", "Box of ten", Decimal("1.00"), case_size=10)
COFFEE = Item("COF-002", "Coffee", Decimal("12.90"))


@pytest.mark.parametrize("text, units", [("1.5 cases", 18), ("0.5 case", 6), ("2.25 cs", 27), ("1.5 cases + 2", 20),
                                         ("2.50 cases", 30), ("2 cases", 24), ("24", 24)])
def test_part_cases(text, units):
    assert parse_quantity(text, TEA) == units


@pytest.mark.parametrize("text", ["2.5", "1 case + 2.5"])
def test_part_cases_rejected(text):
    with pytest.raises(QuantityError):
        parse_quantity(text, TEA)


def test_whole_units_of_a_case():
    assert parse_quantity("0.3 cases", TEN) == 3


def test_part_cases_of_an_item_not_sold_by_the_case():
    with pytest.raises(QuantityError):
        parse_quantity("1.5 cases", COFFEE)
