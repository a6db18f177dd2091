import pytest

from units import parse_count, parse_size


def test_count():
    assert parse_count(" 12 ") == 12


def test_count_refuses_a_sign():
    with pytest.raises(ValueError):
        parse_count("-3")


def test_size_refuses_a_sign():
    with pytest.raises(ValueError):
        parse_size("-3")
