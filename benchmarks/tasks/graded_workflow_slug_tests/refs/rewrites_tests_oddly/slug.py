import re
import unicodedata

MAX_LENGTH = 40


def slugify(title: str) -> str:
    """The URL slug of an article title: lowercase ASCII words joined by dashes, at most
    40 characters cut at a word boundary, "untitled" when nothing is left."""
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    if not words:
        return "untitled"
    slug = words[0][:MAX_LENGTH]
    for word in words[1:]:
        if len(slug) + 1 + len(word) > MAX_LENGTH:
            break
        slug += "-" + word
    return slug
