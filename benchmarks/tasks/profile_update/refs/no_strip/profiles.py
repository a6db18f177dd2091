def apply_profile_form(user, form):
    updated = dict(user)
    for key in ("display_name", "bio"):
        if key in form:
            updated[key] = str(form[key])
    if not updated["display_name"].strip() or len(updated["display_name"]) > 50:
        raise ValueError("bad display_name")
    if len(updated.get("bio") or "") > 500:
        raise ValueError("bio too long")
    return updated
