import importlib
from decimal import Decimal

import pytest


def load(name):
    try:
        return importlib.import_module(name)
    except Exception as exc:
        pytest.fail(f"could not import {name}: {exc!r}")


@pytest.fixture
def things():
    sr = load("stockroom")
    tea = sr.Item("TEA-001", "Green tea", Decimal("4.5"), unit="box", case_size=12, barcode="4006381333931")
    mug = sr.Item("MUG-003", "Mug", Decimal("1234.5"))
    return tea, mug, sr.Location("A1", "Shelf A1")


def stock_db(tmp_path):
    """A database with tea and a mug at A1; returns its path."""
    sr = load("stockroom")
    db = tmp_path / "stock.db"
    repo = sr.Repository.open(db)
    repo.add_item(sr.Item("TEA-001", "Green tea", Decimal("4.50"), unit="box", case_size=12, barcode="4006381333931"))
    repo.add_item(sr.Item("MUG-003", "Mug", Decimal("6.00")))
    repo.add_location(sr.Location("A1", "Shelf A1"))
    from datetime import datetime
    repo.record(sr.Movement("TEA-001", "A1", 26, "receive", datetime(2024, 3, 1)))
    repo.record(sr.Movement("MUG-003", "A1", 3, "receive", datetime(2024, 3, 1)))
    repo.close()
    return db


def write_settings(tmp_path, template):
    text = "[stockroom]\n" + ("" if template is None else f"label_template = {toml_string(template)}\n")
    (tmp_path / "stockroom.toml").write_text(text, encoding="utf-8")


def toml_string(value):
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
