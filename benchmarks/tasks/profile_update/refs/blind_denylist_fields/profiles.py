"""Apply the "edit profile" form to a user record."""

# Fields users must never change themselves.
PROTECTED = {"id", "username", "role", "is_admin"}


def apply_profile_form(user: dict, form: dict) -> dict:
    """Return a new record with the form's fields applied."""
    updated = dict(user)
    for key, value in form.items():
        if key in PROTECTED:
            continue
        updated[key] = str(value).strip()
    name = updated.get("display_name", "")
    if not name or len(name) > 50:
        raise ValueError("display_name must be 1 to 50 characters")
    if len(updated.get("bio", "") or "") > 500:
        raise ValueError("bio must be at most 500 characters")
    return updated
