"""Apply the "edit profile" form to a user record."""

ALLOWED_FIELDS = {"display_name": 50, "bio": 500}


def apply_profile_form(user: dict, form: dict) -> dict:
    """Return the record with display_name and bio taken from the form."""
    for field, max_len in ALLOWED_FIELDS.items():
        if field not in form:
            continue
        value = str(form[field]).strip()
        if len(value) > max_len:
            raise ValueError(f"{field} is longer than {max_len} characters")
        if field == "display_name" and not value:
            raise ValueError("display_name must not be empty")
        user[field] = value
    return user
