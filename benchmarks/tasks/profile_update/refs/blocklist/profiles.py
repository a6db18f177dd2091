BLOCKED = {"id", "is_admin", "role"}


def apply_profile_form(user, form):
    updated = dict(user)
    for key, value in form.items():
        if key in BLOCKED:
            continue
        updated[key] = value.strip() if isinstance(value, str) else value
    if not updated.get("display_name") or len(updated["display_name"]) > 50:
        raise ValueError("bad display_name")
    if len(updated.get("bio") or "") > 500:
        raise ValueError("bio too long")
    return updated
