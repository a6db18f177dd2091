"""The correct axis: what the prompt asks of resolve_inside, and nothing it leaves open."""

from pathlib import Path

import pytest


def resolve(base, name):
    from safe_path import resolve_inside  # imported here: a missing file fails the check, not collection

    return resolve_inside(base, name)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("notes.txt", "notes.txt"),
        ("reports/2024.txt", "reports/2024.txt"),
        ("reports/../notes.txt", "notes.txt"),
    ],
)
def test_a_name_inside_gives_its_absolute_path(tmp_path, name, expected):
    got = resolve(tmp_path, name)
    assert isinstance(got, Path), f"resolve_inside returned a {type(got).__name__}, not a pathlib.Path"
    assert got.is_absolute(), f"resolve_inside({name!r}) returned {got}, which is not absolute"
    assert got.resolve() == (tmp_path / expected).resolve(), f"resolve_inside({name!r}) returned {got}"


def test_base_may_be_a_string(tmp_path):
    got = resolve(str(tmp_path), "notes.txt")
    assert Path(got).resolve() == (tmp_path / "notes.txt").resolve(), f"with a str base it returned {got}"


@pytest.mark.parametrize("name", ["../secret.txt", "/etc/passwd"])
def test_a_name_outside_raises_value_error(tmp_path, name):
    base = tmp_path / "data"
    base.mkdir()
    with pytest.raises(ValueError):
        resolve(base, name)
