import importlib

import pytest


def load():
    try:
        return importlib.import_module("semver")
    except Exception as exc:
        pytest.fail(f"could not import semver.py: {exc!r}")


def check(a, b, expected):
    got = load().compare_versions(a, b)
    assert got == expected, f"compare_versions({a!r}, {b!r}) should be {expected}, got {got!r}"
    back = load().compare_versions(b, a)
    assert back == -expected, f"compare_versions({b!r}, {a!r}) should be {-expected}, got {back!r}"


@pytest.mark.parametrize("a, b", [
    ("1.0.0", "2.0.0"),
    ("2.0.0", "2.1.0"),
    ("2.1.0", "2.1.1"),
    ("1.9.0", "1.10.0"),
    ("1.2.9", "1.2.10"),
    ("0.9.9", "1.0.0"),
])
def test_core_versions_compare_numerically(a, b):
    check(a, b, -1)


def test_equal_versions():
    check("1.2.3", "1.2.3", 0)


def test_release_is_higher_than_pre_release():
    check("1.0.0-rc.1", "1.0.0", -1)
    check("1.0.0", "1.0.0-alpha", 1)
    check("1.0.0-rc.1", "0.9.9", 1)


SPEC_ORDER = [
    "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
    "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0",
]


@pytest.mark.parametrize("i", range(len(SPEC_ORDER) - 1))
def test_precedence_example_from_the_spec(i):
    check(SPEC_ORDER[i], SPEC_ORDER[i + 1], -1)


def test_numeric_pre_release_identifiers_compare_numerically():
    check("2.0.0-rc.9", "2.0.0-rc.10", -1)
    check("1.0.0-2", "1.0.0-10", -1)


def test_numeric_identifier_lower_than_alphanumeric():
    check("1.0.0-1", "1.0.0-alpha", -1)
    check("1.0.0-alpha.99", "1.0.0-alpha.a", -1)
    check("1.0.0-2", "1.0.0--1", -1)  # '-1' has a hyphen: alphanumeric, though '-' sorts before digits


def test_build_metadata_is_ignored():
    check("1.0.0+build.1", "1.0.0+build.2", 0)
    check("1.0.0+20240101", "1.0.0", 0)
    check("1.0.0-rc.1+build.7", "1.0.0-rc.1", 0)
    check("1.0.0-beta+exp.sha.5114f85", "1.0.0", -1)


def test_hyphens_inside_a_pre_release_are_part_of_it():
    # Only the first '-' starts the pre-release; later ones belong to its identifiers.
    check("1.0.0-rc-1", "1.0.0-rc-2", -1)
    check("1.0.0-x", "1.0.0-x-y", -1)
    check("1.0.0-alpha-10.1", "1.0.0-alpha-2.1", -1)  # alphanumeric: compared in ASCII order
    check("1.0.0-rc-1+build-5", "1.0.0-rc-1", 0)
