from decimal import Decimal

import pytest

from stockroom.models import Item
from stockroom.units import QuantityError, parse_quantity

TEA = Item("TEA-001", "Tea", Decimal("4.50"), case_size=12)
PACK = Item("PAK-025", "Pack", Decimal("1.00"), case_size=25)


@pytest.mark.parametrize("text, item, units", [("1.5 cases", TEA, 18), ("0.5 case + 2", TEA, 8), ("1.16 cases", PACK, 29)])
def test_part_cases(text, item, units):
    assert parse_quantity(text, item) == units


@pytest.mark.parametrize("text", ["1.3 cases", "2.5", "1 case + 2.5", ".5 case"])
def test_not_whole_units(text):
    with pytest.raises(QuantityError):
        parse_quantity(text, TEA)
