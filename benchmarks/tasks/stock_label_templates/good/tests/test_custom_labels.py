from decimal import Decimal

import pytest

from stockroom.labels import LabelTemplateError, render_custom_label
from stockroom.models import Item, Location

TEA = Item("TEA-001", "Green tea", Decimal("4.5"), unit="box", case_size=12)


def test_placeholders_and_escapes():
    text = render_custom_label("{item.name} {{x}}\n{item.sku} @ {location.code} {item.price} x{qty}", TEA, Location("A1"), 26)
    assert text == "Green tea {x}\nTEA-001 @ A1 4.50 x26"


@pytest.mark.parametrize("template", ["{item.colour}", "{qty:>5}", "{qty!r}", "{", "{item.__init__.__globals__}"])
def test_anything_else_is_refused(template):
    with pytest.raises(LabelTemplateError):
        render_custom_label(template, TEA, Location("A1"), 1)
