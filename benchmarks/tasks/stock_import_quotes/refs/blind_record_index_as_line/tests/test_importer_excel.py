from decimal import Decimal

from stockroom.importer import read_items


def write(tmp_path, data: bytes):
    path = tmp_path / "items.csv"
    path.write_bytes(data)
    return path


def test_excel_file_with_bom_and_quotes(tmp_path):
    data = "\ufeffsku,name,unit,case_size,price\r\nTEA-013,Sencha,box,12,4.00\r\nTEA-014,\"Tea, green (loose)\",box,12,4.50\r\n"
    items = read_items(write(tmp_path, data.encode("utf-8")))
    assert [(i.sku, i.name, i.price) for i in items] == [
        ("TEA-013", "Sencha", Decimal("4.00")),
        ("TEA-014", "Tea, green (loose)", Decimal("4.50")),
    ]


def test_doubled_quotes(tmp_path):
    (item,) = read_items(write(tmp_path, b'sku,name,price\nMUG-1,"The ""big"" mug",6.00\n'))
    assert item.name == 'The "big" mug'
