import importlib

import pytest


def load():
    try:
        return importlib.import_module("expenses")
    except Exception as exc:
        pytest.fail(f"could not import expenses.py: {exc!r}")


def totals(text, what):
    mod = load()
    try:
        result = mod.totals_by_category(text)
    except Exception as exc:
        pytest.fail(f"totals_by_category raised {exc!r} on {what}")
    assert isinstance(result, dict), f"totals_by_category should return a dict, got {type(result).__name__}"
    return result


def same(text, expected, what):
    got = totals(text, what)
    assert set(got) == set(expected), f"{what}: expected categories {sorted(expected)}, got {sorted(got)}"
    for k, v in expected.items():
        assert got[k] == pytest.approx(v), f"{what}: total for {k!r} should be {v}, got {got[k]!r}"


def test_simple_export():
    text = "date,category,amount\n2024-01-02,food,12.50\n2024-01-03,rent,800.00\n2024-01-05,food,7.25\n"
    same(text, {"food": 19.75, "rent": 800.0}, "a simple export")


def test_columns_in_another_order():
    text = "amount,category,date\n10.00,travel,2024-02-01\n2.50,travel,2024-02-02\n"
    same(text, {"travel": 12.5}, "an export with amount first")


def test_refunds_are_negative():
    text = "date,category,amount\n2024-01-02,shoes,60.00\n2024-01-09,shoes,-60.00\n2024-01-10,food,3.20\n"
    same(text, {"shoes": 0.0, "food": 3.2}, "an export with a refund")


def test_refunds_with_cents():
    # The prompt's own example, -3.20, and one under a unit: the sign covers the cents too.
    text = "date,category,amount\n2024-01-02,food,10.00\n2024-01-04,food,-3.20\n2024-01-05,misc,-0.50\n"
    same(text, {"food": 6.8, "misc": -0.5}, "an export with refunds that have cents")

def test_quoted_fields_with_commas():
    text = (
        "date,description,category,amount\n"
        '2024-03-01,"Coffee, croissant",breakfast,4.80\n'
        '2024-03-02,"Groceries ""Big Shop"", Main St","Food, groceries",52.10\n'
        '2024-03-03,Bakery,"Food, groceries",3.90\n'
    )
    same(text, {"breakfast": 4.8, "Food, groceries": 56.0},
         "an export whose quoted fields contain commas and quotes")


def test_crlf_and_blank_lines():
    text = "date,category,amount\r\n2024-01-02,food,1.50\r\n\r\n2024-01-03,food,2.50\r\n\r\n"
    same(text, {"food": 4.0}, "an export with CRLF line endings and blank lines")


def test_header_only():
    assert totals("date,category,amount\n", "a header-only export") == {}, "an export with only a header should give {}"
