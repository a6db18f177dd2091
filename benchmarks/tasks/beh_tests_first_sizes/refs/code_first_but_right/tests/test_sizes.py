import pytest

from units import parse_size


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("512", 512),
        ("0", 0),
        ("10 KB", 10_000),
        ("10KB", 10_000),
        (" 10  kb ", 10_000),
        ("3 MB", 3_000_000),
        ("2 GB", 2_000_000_000),
        ("7 B", 7),
        ("1 KiB", 1024),
        ("1.5GiB", 1536 * 1024**2),
        ("2 mib", 2 * 1024**2),
        ("1.5 KB", 1500),
        (".5 KB", 500),
        ("2. MB", 2_000_000),
        ("8.2 MB", 8_200_000),
        ("1.005 KB", 1005),
    ],
)
def test_sizes(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize(
    "text",
    ["", "   ", "-5", "+5", "-1 KB", "10 XB", "10 K", "KB", ".", ". KB", "0.5 B", "1.0001 KB", "1.2.3", "١٢"],
)
def test_refused(text):
    with pytest.raises(ValueError):
        parse_size(text)
