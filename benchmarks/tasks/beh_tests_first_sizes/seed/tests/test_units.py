import pytest

from units import parse_count


def test_count():
    assert parse_count(" 12 ") == 12


def test_count_refuses_a_sign():
    with pytest.raises(ValueError):
        parse_count("-3")
