import importlib

import pytest

def load():
    try:
        return importlib.import_module("luhn")
    except Exception as exc:
        pytest.fail(f"could not import luhn.py: {exc!r}")


@pytest.mark.parametrize("number", [
    "4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111", "378282246310005",
    "6011111111111117", "5555555555554444", "4222222222222", "4012888888881881",
    "4123456789012345677", "4123 4567 8901 2345 677", "4123-4567-8901-2345-677",
    "6011 0000 0000 0000 001", "411111111117", "4111 1111 1117",
])
def test_valid_numbers(number):
    assert load().is_valid_card(number) is True, f"is_valid_card({number!r}) should be True"


@pytest.mark.parametrize("number", [
    "4111111111111112", "378282246310006", "1234567812345678", "", "4111 1111 1111 111a",
    "41111111111", "4" + "0" * 19, "4111_1111_1111_1111",
    "4111111111111111\n", "4111 1111 1111 1111\n", "\u0664111111111111111",
    "\uff14\uff11\uff11\uff11111111111111", "4111 1111 1111 111\u00b2", "\u00b2" * 16,
    "4111\u00a01111\u00a01111\u00a01111", "4111\t1111 1111 1111",
    "41111111112", "4111 1111 112", "41111111111111111115", "4111 1111 1111 1111 1115",
])
def test_invalid_numbers(number):
    assert load().is_valid_card(number) is False, f"is_valid_card({number!r}) should be False"
