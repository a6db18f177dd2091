import pytest

from units import parse_size


def test_examples():
    assert parse_size("512") == 512
    assert parse_size("10 KB") == 10000
    assert parse_size("1.5GiB") == 1610612736


def test_error():
    with pytest.raises(ValueError):
        parse_size("abc")
