def slugify(title: str) -> str:
    """The title in lower case, letters, digits and spaces only, its words joined by "-"."""
    kept = "".join(ch for ch in title if ch.isalnum() or ch.isspace())
    return "-".join(kept.lower().split())
