def slugify(title: str) -> str:
    """The URL slug of an article title."""
    raise NotImplementedError
