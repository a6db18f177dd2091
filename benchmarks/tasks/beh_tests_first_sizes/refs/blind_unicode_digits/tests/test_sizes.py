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


@pytest.mark.parametrize("text, expected", [("2kb", 2000), ("2gib", 2 * 1024**3), ("2Mb", 2_000_000), ("3b", 3), ("1KIB", 1024)])
def test_units_in_any_case(text, expected):
    assert parse_size(text) == expected


def test_no_unit_means_bytes():
    assert parse_size("7") == 7


@pytest.mark.parametrize("text, expected", [("1.5 KB", 1500), (".5 KB", 500), ("2. KB", 2000), ("2.", 2), ("0.25 KiB", 256)])
def test_decimal_point(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text, expected", [("1.1 KB", 1100), ("0.3 KB", 300), ("2.675 MB", 2_675_000), ("4.7 GB", 4_700_000_000), ("1.001 KB", 1001), ("1.015 KB", 1015), ("9007199254740993", 9007199254740993)])
def test_decimals_are_exact(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["0.5 B", "0.5", "1.0001 KB", "0.1 KiB"])
def test_size_must_be_whole_bytes(text):
    with pytest.raises(ValueError):
        parse_size(text)


@pytest.mark.parametrize("text", ["", "   "])
def test_empty(text):
    with pytest.raises(ValueError):
        parse_size(text)


@pytest.mark.parametrize("text", ["-1", "+1", "-0", "- 5 KB", "+1.5GiB"])
def test_sign(text):
    with pytest.raises(ValueError):
        parse_size(text)


@pytest.mark.parametrize("text", ["10 XB", "10 KBB", "10 K", "10 kibi", "10 TB", "10 bytes"])
def test_unknown_unit(text):
    with pytest.raises(ValueError):
        parse_size(text)


@pytest.mark.parametrize("text", [".", "KB", " . KB", "GiB"])
def test_number_without_digits(text):
    with pytest.raises(ValueError):
        parse_size(text)


@pytest.mark.parametrize("text", ["1.2.3", "1..5 KB", "1 000", "1_000", "1e3", "0x10", "inf", "nan"])
def test_only_ascii_digits_and_one_point(text):
    with pytest.raises(ValueError):
        parse_size(text)
