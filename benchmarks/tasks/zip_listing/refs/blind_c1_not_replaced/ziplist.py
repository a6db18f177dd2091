"""List the members of a zip archive for a terminal (`pkgtool ls FILE.zip`)."""

import re
import zipfile

# ASCII control characters: C0 (0x00-0x1F) and DEL.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _safe(name: str) -> str:
    """The name with every control character shown as `?`, as `ls` does."""
    return _CONTROL.sub("?", name)


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
