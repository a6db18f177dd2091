import re
import unicodedata

MAX_LENGTH = 40


def _ascii(text: str) -> str:
    """Drop accents: é -> e (decompose, then keep the ASCII part)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def slugify(title: str) -> str:
    """The URL slug of an article title: lowercase ASCII words joined by dashes, at most 40
    characters (cut at a word), "untitled" when nothing is left."""
    slug = re.sub(r"[^a-z0-9-]+", "-", _ascii(title).lower()).strip("-")
    words = [slug] if slug else []
    slug = "-".join(words)
    if len(slug) > MAX_LENGTH:
        cut = slug[: MAX_LENGTH + 1].rfind("-")
        slug = slug[:cut] if cut > 0 else slug[:MAX_LENGTH]
    return slug or "untitled"
