import pytest

from units import parse_size


# A number followed by an optional unit, with optional spaces around and between them.
@pytest.mark.parametrize(
    "text, expected",
    [
        ("512", 512),
        ("10 KB", 10_000),
        ("10KB", 10_000),
        ("  10   KB  ", 10_000),
        (" 512 ", 512),
        ("1.5GiB", 1536 * 1024**2),
    ],
)
def test_number_and_optional_unit(text, expected):
    assert parse_size(text) == expected


# Decimal units are powers of 1000, binary units powers of 1024.
@pytest.mark.parametrize(
    "text, expected",
    [
        ("1B", 1),
        ("1KB", 1000),
        ("1MB", 1000**2),
        ("1GB", 1000**3),
        ("1KiB", 1024),
        ("1MiB", 1024**2),
        ("1GiB", 1024**3),
    ],
)
def test_units(text, expected):
    assert parse_size(text) == expected



def test_no_unit_means_bytes():
    assert parse_size("7") == 7


@pytest.mark.parametrize("text, expected", [("1.5 KB", 1500), (".5 KB", 500), ("2. KB", 2000), ("2.", 2), ("0.25 KiB", 256)])
def test_decimal_point(text, expected):
    assert parse_size(text) == expected



@pytest.mark.parametrize("text", ["0.5 B", "0.5", "1.0001 KB", "0.1 KiB"])
def test_size_must_be_whole_bytes(text):
    with pytest.raises(ValueError):
        parse_size(text)


@pytest.mark.parametrize("text", ["", "   "])
def test_empty(text):
    with pytest.raises(ValueError):
        parse_size(text)
