def slugify(title: str) -> str:
    """The title in lower case, its words joined by "-"."""
    return "-".join(title.lower().split())
