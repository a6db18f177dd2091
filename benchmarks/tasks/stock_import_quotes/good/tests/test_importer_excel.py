from decimal import Decimal

import pytest

from stockroom.importer import ItemImportError, read_items


def write(tmp_path, text, bom=True):
    path = tmp_path / "items.csv"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


def test_excel_export_with_bom_quotes_and_line_breaks(tmp_path):
    text = ('sku,name,unit,case_size,price\r\nTEA-014,"Tea, green (loose)",box,12,4.50\r\n'
            'TEA-015,"The ""Emperor"" blend",box,6,9.90\r\nTEA-016,"Breakfast tea\r\n(strong)",box,12,3.20\r\n')
    items = read_items(write(tmp_path, text))
    assert [(i.sku, i.name, i.price) for i in items] == [
        ("TEA-014", "Tea, green (loose)", Decimal("4.50")),
        ("TEA-015", 'The "Emperor" blend', Decimal("9.90")),
        ("TEA-016", "Breakfast tea\r\n(strong)", Decimal("3.20")),
    ]


def test_line_numbers_count_the_lines_of_a_long_name(tmp_path):
    with pytest.raises(ItemImportError) as info:
        read_items(write(tmp_path, 'sku,name,price\nTEA-1,"two\nlines",1\nTEA-2,Tea,abc\n'))
    assert info.value.line == 4
