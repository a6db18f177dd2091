def apply_profile_form(user, form):
    updated = dict(user)
    for key in user:
        if key in form:
            value = form[key]
            updated[key] = value.strip() if isinstance(value, str) else value
    if not updated.get("display_name") or len(updated["display_name"]) > 50:
        raise ValueError("bad display_name")
    if len(updated.get("bio") or "") > 500:
        raise ValueError("bio too long")
    return updated
