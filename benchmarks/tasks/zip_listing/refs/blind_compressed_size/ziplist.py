"""List the members of a zip archive for a terminal (`pkgtool ls FILE.zip`)."""

import unicodedata
import zipfile


def _safe(name: str) -> str:
    """The name with every control character (category Cc) shown as `?`, as `ls` does."""
    return "".join("?" if unicodedata.category(ch) == "Cc" else ch for ch in name)


def list_zip(path: str) -> str:
    lines = []
    total = 0
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
        for info in infos:
            size = info.compress_size
            total += size
            lines.append(f"{size:>10}  {_safe(info.filename)}\n")
    lines.append(f"{len(infos)} members, {total} bytes\n")
    return "".join(lines)
