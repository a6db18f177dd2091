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
            total += info.file_size
            lines.append(f"{info.file_size:>10}  {_safe(info.filename)}\n")
    count = len(infos)
    noun = "member" if count == 1 else "members"
    lines.append(f"{count} {noun}, {total} bytes\n")
    return "".join(lines)
