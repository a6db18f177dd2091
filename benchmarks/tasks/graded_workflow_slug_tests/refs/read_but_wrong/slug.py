import re
import unicodedata


def slugify(title: str) -> str:
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii").lower()
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:40].rstrip("-")
    print("slug:", slug)
    return slug or "untitled"
