import importlib

import pytest


def load():
    try:
        return importlib.import_module("intervals")
    except Exception as exc:
        pytest.fail(f"could not import intervals.py: {exc!r}")


def merged(intervals):
    result = load().merge_intervals(intervals)
    return [tuple(iv) for iv in result]


@pytest.mark.parametrize("given, expected, case", [
    ([], [], "an empty list"),
    ([(1, 2)], [(1, 2)], "a single interval"),
    ([(1, 3), (2, 6), (8, 10)], [(1, 6), (8, 10)], "two overlapping intervals and a separate one"),
    ([(8, 10), (1, 3), (2, 6)], [(1, 6), (8, 10)], "unsorted input"),
    ([(1, 3), (3, 5)], [(1, 5)], "touching intervals"),
    ([(1, 10), (2, 3)], [(1, 10)], "an interval inside another"),
    ([(1, 10), (2, 3), (4, 5)], [(1, 10)], "several intervals inside another"),
    ([(1, 4), (2, 3), (5, 6)], [(1, 4), (5, 6)], "a nested interval followed by a separate one"),
    ([(1, 2), (1, 2)], [(1, 2)], "duplicates"),
    ([(5, 5), (1, 2)], [(1, 2), (5, 5)], "an empty-width interval"),
    ([(-5, -1), (-2, 0)], [(-5, 0)], "negative numbers"),
    ([(1, 2), (3, 4)], [(1, 2), (3, 4)], "adjacent but not touching intervals"),
    ([(1, 2), (5, 6), (6, 8), (7, 12)], [(1, 2), (5, 12)], "merging after a separate interval"),
    ([(0, 1), (3, 9), (4, 5), (10, 11), (11, 12)], [(0, 1), (3, 9), (10, 12)], "two merges after gaps"),
    ([(20, 30), (1, 50), (60, 70), (65, 66)], [(1, 50), (60, 70)], "a long interval swallowing a later start"),
])
def test_merge(given, expected, case):
    got = merged(list(given))
    assert got == expected, f"merge_intervals({given!r}) ({case}) should be {expected!r}, got {got!r}"


def test_input_not_modified():
    given = [(8, 10), (1, 3), (2, 6)]
    copy = list(given)
    load().merge_intervals(given)
    assert given == copy, f"merge_intervals modified its input list: {copy!r} became {given!r}"


@pytest.mark.parametrize("given", [[], [(4, 7)], [(1, 3), (2, 6)]], ids=["empty", "one", "two"])
def test_returns_a_new_list_of_tuples(given):
    copy = list(given)
    got = load().merge_intervals(given)
    assert isinstance(got, list), f"merge_intervals({copy!r}) should return a list, got {type(got).__name__}"
    assert got is not given, (
        f"merge_intervals({copy!r}) returned the list passed in, not a new list: changing the "
        "result would change the caller's list")
    assert all(isinstance(iv, tuple) for iv in got), (
        f"merge_intervals({copy!r}) should return (start, end) tuples, got {got!r}")
    got.append((100, 200))
    assert given == copy, f"changing the result of merge_intervals changed its input: {given!r}"
