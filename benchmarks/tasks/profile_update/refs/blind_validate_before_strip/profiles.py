"""Apply the "edit profile" form to a user record."""

EDITABLE = ("display_name", "bio")


def apply_profile_form(user: dict, form: dict) -> dict:
    """Return a copy of `user` with display_name and bio taken from the form."""
    if "display_name" in form:
        name = str(form["display_name"])
        if not name or len(name) > 50:
            raise ValueError("display_name must be 1 to 50 characters")
    if "bio" in form and len(str(form["bio"])) > 500:
        raise ValueError("bio must be at most 500 characters")
    updated = dict(user)
    for field in EDITABLE:
        if field in form:
            updated[field] = str(form[field]).strip()
    return updated
