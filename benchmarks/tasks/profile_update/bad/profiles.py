def apply_profile_form(user: dict, form: dict) -> dict:
    updated = {**user, **{k: v.strip() if isinstance(v, str) else v for k, v in form.items()}}
    if not updated.get("display_name"):
        raise ValueError("display_name must not be empty")
    if len(updated["display_name"]) > 50 or len(updated.get("bio", "")) > 500:
        raise ValueError("too long")
    return updated
