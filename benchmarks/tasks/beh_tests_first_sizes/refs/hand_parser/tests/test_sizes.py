import pytest

from units import parse_size


def test_plain_bytes():
    assert parse_size("512") == 512
    assert parse_size("7 B") == 7


def test_decimal_units():
    assert parse_size("10 KB") == 10000
    assert parse_size("2MB") == 2 * 10**6
    assert parse_size("1 GB") == 10**9


def test_binary_units():
    assert parse_size("1 KiB") == 1024
    assert parse_size("1.5GiB") == 1610612736
    assert parse_size("1 MiB") == 1048576


def test_case_does_not_matter():
    assert parse_size("10 kb") == parse_size("10 KB")
    assert parse_size("1 gib") == 2**30


def test_spaces():
    assert parse_size("  10   KB  ") == 10000
    assert parse_size("10KB") == 10000


def test_decimal_forms():
    assert parse_size("1.5 KB") == 1500
    assert parse_size(".5 KB") == 500
    assert parse_size("2. KB") == 2000


@pytest.mark.parametrize("bad", ["", "-1", "+1", "10 PB", "KB", ".", "0.5 B", "1.5 B"])
def test_errors(bad):
    with pytest.raises(ValueError):
        parse_size(bad)
