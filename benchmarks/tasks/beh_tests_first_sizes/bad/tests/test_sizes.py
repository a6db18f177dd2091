from units import parse_size


def test_bytes():
    assert parse_size("512") == 512


def test_gib():
    assert parse_size("1.5GiB") == 1536 * 1024 * 1024
