def _clean(value):
    return str(value).strip()


def apply_profile_form(user, form):
    name = _clean(form["display_name"]) if "display_name" in form else user["display_name"]
    bio = _clean(form["bio"]) if "bio" in form else user.get("bio", "")
    if not name or len(name) > 50:
        raise ValueError("display_name must be 1 to 50 characters")
    if len(bio) > 500:
        raise ValueError("bio must be at most 500 characters")
    return {**user, "display_name": name, "bio": bio}
