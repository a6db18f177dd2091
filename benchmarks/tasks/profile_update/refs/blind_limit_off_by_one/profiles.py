"""Apply the "edit profile" form to a user record."""

import copy

MAX_DISPLAY_NAME = 50
MAX_BIO = 500


def apply_profile_form(user: dict, form: dict) -> dict:
    """Return a new record with display_name and bio taken from the form when present."""
    updated = copy.deepcopy(user)
    if "display_name" in form:
        name = str(form["display_name"]).strip()
        if not name or len(name) >= MAX_DISPLAY_NAME:
            raise ValueError("display_name must be between 1 and 50 characters")
        updated["display_name"] = name
    if "bio" in form:
        bio = str(form["bio"]).strip()
        if len(bio) >= MAX_BIO:
            raise ValueError("bio must be at most 500 characters")
        updated["bio"] = bio
    return updated
