import importlib

import pytest


def parse(header, size):
    try:
        mod = importlib.import_module("byteranges")
    except Exception as exc:
        pytest.fail(f"could not import byteranges.py: {exc!r}")
    return mod.parse_range(header, size)


def pairs(got):
    return [tuple(p) for p in got]


@pytest.mark.parametrize(("header", "size", "want"), [
    ("bytes=0-499", 10000, [(0, 499)]),
    ("bytes=500-999", 10000, [(500, 999)]),
    ("bytes=0-0", 1, [(0, 0)]),
    ("bytes=9500-", 10000, [(9500, 9999)]),
    ("bytes=0-", 1, [(0, 0)]),
    ("bytes=-500", 10000, [(9500, 9999)]),
    ("bytes=-1", 10000, [(9999, 9999)]),
    ("bytes=-10000", 10000, [(0, 9999)]),
    ("bytes=-20000", 10000, [(0, 9999)]),
    ("bytes=9999-9999", 10000, [(9999, 9999)]),
])
def test_single_range(header, size, want):
    got = parse(header, size)
    assert pairs(got) == want, f"parse_range({header!r}, {size}) returned {got!r}, expected {want!r}"


@pytest.mark.parametrize(("header", "size", "want"), [
    ("bytes=500-10000", 10000, [(500, 9999)]),
    ("bytes=500-9999", 10000, [(500, 9999)]),
    ("bytes=500-9998", 10000, [(500, 9998)]),
    ("bytes=0-99999999999999999999", 10, [(0, 9)]),
])
def test_last_past_the_end_is_cut(header, size, want):
    got = parse(header, size)
    assert pairs(got) == want, (
        f"parse_range({header!r}, {size}) returned {got!r}: a last offset at or past the end is cut to "
        f"size - 1, expected {want!r}")


@pytest.mark.parametrize(("header", "size", "want"), [
    ("bytes=0-0, -1", 100, [(0, 0), (99, 99)]),
    ("bytes=0-0,-1", 100, [(0, 0), (99, 99)]),
    ("bytes=50-59 ,  0-9", 100, [(50, 59), (0, 9)]),
    ("bytes=10-19,10-19", 100, [(10, 19), (10, 19)]),
    ("bytes=200-300, 5-6", 100, [(5, 6)]),
    ("bytes=-0, 5-", 100, [(5, 99)]),
    ("bytes=100-, 0-0", 100, [(0, 0)]),
])
def test_several_ranges_in_order(header, size, want):
    got = parse(header, size)
    assert pairs(got) == want, (
        f"parse_range({header!r}, {size}) returned {got!r}, expected {want!r} (in the header's order, "
        "unsatisfiable ranges left out)")


def test_result_is_a_list_of_pairs():
    got = parse("bytes=1-2, 3-4", 10)
    assert isinstance(got, list) and all(len(p) == 2 for p in got), f"expected a list of pairs, got {got!r}"
    assert all(type(x) is int for p in got for x in p), f"offsets should be ints, got {got!r}"


@pytest.mark.parametrize(("header", "size"), [
    ("bytes=100-", 100),
    ("bytes=100-200", 100),
    ("bytes=101-", 100),
    ("bytes=-0", 100),
    ("bytes=-0, 100-", 100),
    ("bytes=1-1", 1),
])
def test_unsatisfiable_raises(header, size):
    with pytest.raises(ValueError):
        got = parse(header, size)
        pytest.fail(f"parse_range({header!r}, {size}) returned {got!r}: no range can be satisfied, "
                    "so it should raise ValueError")


@pytest.mark.parametrize("header", [
    "items=0-1",
    "bytes 0-1",
    "bytes=",
    "bytes=-",
    "bytes=5-2",
    "bytes=200-150, 0-1",  # last before first, though first is past the end too
    "bytes=0-1, 150-120",
    "bytes=abc",
    "bytes=1-2-3",
    "bytes=--5",
    "bytes=+1-2",
    "bytes=1-+2",
    "bytes=-+5",
    "bytes=1_0-20",
    "bytes=0x1-2",
    "bytes=5",
    "bytes=1 -2",
    "bytes=\u0661-2",
    "bytes=0-1,,2-3",
    "bytes=0-1, x",
])
def test_malformed_raises(header):
    with pytest.raises(ValueError):
        got = parse(header, 100)
        pytest.fail(f"parse_range({header!r}, 100) returned {got!r}: the header is malformed, so it should "
                    "raise ValueError")
