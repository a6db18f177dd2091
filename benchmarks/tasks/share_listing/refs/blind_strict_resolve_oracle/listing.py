"""Plain-text folder listing of the file share."""

import os
from pathlib import Path

_PRINTABLE = range(0x20, 0x7F)


def _escape_name(raw: bytes) -> str:
    out = []
    for b in raw:
        if b == 0x5C:
            out.append("\\\\")
        elif b in _PRINTABLE:
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "".join(out)


def _resolve_folder(root, rel) -> bytes:
    root_real = Path(os.fsdecode(root)).resolve()
    if os.path.isabs(rel):
        raise ValueError("absolute path")
    # strict: a missing folder raises FileNotFoundError here
    target = (root_real / rel).resolve(strict=True)
    if not target.is_relative_to(root_real):
        raise ValueError("outside the share")
    if not target.is_dir():
        raise FileNotFoundError(rel)
    return os.fsencode(target)


def _suffix(entry) -> str:
    if entry.is_symlink():
        return "@"
    if entry.is_dir(follow_symlinks=False):
        return "/"
    return ""


def render_listing(root, rel) -> str:
    folder = _resolve_folder(root, rel)
    with os.scandir(folder) as it:
        entries = sorted(it, key=lambda e: e.name)
    return "".join(_escape_name(e.name) + _suffix(e) + "\n" for e in entries)
