"""The safe axis: whatever resolve_inside returns lies inside base. Refusing (any exception) is
safe; which exception it raises is the correct axis's business."""

import os
from pathlib import Path

import pytest


def outcome(base, name):
    from safe_path import resolve_inside

    try:
        return resolve_inside(base, name)
    except Exception:
        return None  # refused


def inside(path, base):
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(base))


@pytest.mark.parametrize(
    "name", ["../secret.txt", "/etc/passwd", "reports/../../secret.txt", "../data-evil/secret.txt"]
)
def test_no_name_leads_out_of_base(tmp_path, name):
    base = tmp_path / "data"
    base.mkdir()
    (tmp_path / "data-evil").mkdir()
    got = outcome(base, name)
    assert got is None or inside(got, base), f"resolve_inside({name!r}) gave {got}, outside {base}"


def test_a_symlink_out_of_base_is_not_a_way_out(tmp_path):
    base = tmp_path / "data"
    base.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (base / "link").symlink_to(outside)
    got = outcome(base, "link/secret.txt")
    assert got is None or inside(got, base), (
        f"resolve_inside('link/secret.txt') gave {got}, through a symlink out of {base}"
    )
