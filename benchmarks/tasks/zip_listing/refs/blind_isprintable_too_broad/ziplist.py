"""List the members of a zip archive for a terminal (`pkgtool ls FILE.zip`)."""

import zipfile


def _safe(name: str) -> str:
    """The name with every character the terminal would not print shown as `?`, as `ls` does."""
    return "".join(ch if ch.isprintable() else "?" for ch in name)


def list_zip(path: str) -> str:
    lines = []
    total = 0
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
        for info in infos:
            total += info.file_size
            lines.append(f"{info.file_size:>10}  {_safe(info.filename)}\n")
    lines.append(f"{len(infos)} members, {total} bytes\n")
    return "".join(lines)
