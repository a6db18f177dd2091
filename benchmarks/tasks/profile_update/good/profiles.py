EDITABLE = ("display_name", "bio")
LIMITS = {"display_name": 50, "bio": 500}


def apply_profile_form(user: dict, form: dict) -> dict:
    updated = dict(user)
    for field in EDITABLE:
        if field in form:
            updated[field] = str(form[field]).strip()
    if not updated.get("display_name"):
        raise ValueError("display_name must not be empty")
    for field, limit in LIMITS.items():
        if len(updated.get(field) or "") > limit:
            raise ValueError(f"{field} is longer than {limit} characters")
    return updated
