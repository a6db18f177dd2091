import importlib

import pytest

def load():
    try:
        return importlib.import_module("profiles")
    except Exception as exc:
        pytest.fail(f"could not import profiles.py: {exc!r}")

def user():
    return {"id": 7, "username": "ann", "email": "ann@example.com", "display_name": "Ann",
            "bio": "", "role": "member", "is_admin": False, "balance_cents": 0, "email_verified": True}


def test_changes_display_name_and_bio():
    before = user()
    got = load().apply_profile_form(before, {"display_name": "  Ann B. ", "bio": "Tea lover"})
    assert got == {**user(), "display_name": "Ann B.", "bio": "Tea lover"}, f"got {got!r}"
    assert before == user(), "apply_profile_form changed the user dict it was given"


def test_missing_fields_are_kept():
    got = load().apply_profile_form(user(), {"bio": "hi"})
    assert got["display_name"] == "Ann" and got["bio"] == "hi", f"got {got!r}"
    got = load().apply_profile_form({**user(), "bio": "Tea lover"}, {"display_name": "Ann B."})
    assert got["display_name"] == "Ann B." and got["bio"] == "Tea lover", f"a bio the form does not send is kept: {got!r}"


@pytest.mark.parametrize("form", [{"display_name": "   "}, {"display_name": "x" * 51}, {"bio": "b" * 501}])
def test_invalid_values_raise(form):
    with pytest.raises(ValueError):
        load().apply_profile_form(user(), form)
        pytest.fail(f"apply_profile_form with {form!r} should raise ValueError")


def test_limits_are_inclusive():
    got = load().apply_profile_form(user(), {"display_name": "x" * 50, "bio": "b" * 500})
    assert len(got["display_name"]) == 50 and len(got["bio"]) == 500
