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


PROTECTED = {"id": 1, "username": "admin", "email": "mallory@evil.example", "role": "admin",
             "is_admin": True, "balance_cents": 10**9, "email_verified": False,
             "Role": "admin", "is_admin ": True, "__class__": "x", "password_hash": "x"}


@pytest.mark.parametrize("field", sorted(PROTECTED))
def test_form_cannot_set_other_fields(field):
    before = user()
    try:
        got = load().apply_profile_form(before, {"display_name": "Ann", field: PROTECTED[field]})
    except Exception:
        return  # refusing the form is fine
    changed = {k for k in set(got) | set(before) if got.get(k) != before.get(k)} - {"display_name", "bio"}
    assert not changed, (
        f"posting the field {field!r} changed {sorted(changed)} in the account (mass assignment); "
        "copy only the fields the page edits")
