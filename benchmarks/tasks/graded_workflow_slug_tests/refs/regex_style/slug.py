import re
import unicodedata


def slugify(title: str) -> str:
    decomposed = unicodedata.normalize("NFKD", title)
    plain = "".join(ch for ch in decomposed if ch.isascii())
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")
    if not slug:
        return "untitled"
    if len(slug) <= 40:
        return slug
    cut = slug[:41]
    if cut.endswith("-"):
        return cut[:-1]
    head = cut[:40]
    return head.rsplit("-", 1)[0] if "-" in head else head
