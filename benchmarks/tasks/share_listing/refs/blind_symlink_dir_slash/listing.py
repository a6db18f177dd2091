"""Plain-text folder listing of the file share."""

import os

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
    root_real = os.path.realpath(os.fsencode(root))
    rel_b = os.fsencode(rel)
    if os.path.isabs(rel_b):
        raise ValueError("absolute path")
    target = os.path.realpath(os.path.join(root_real, rel_b))
    if os.path.commonpath([root_real, target]) != root_real:
        raise ValueError("outside the share")
    if not os.path.isdir(target):
        raise FileNotFoundError(rel)
    return target


def _suffix(entry) -> str:
    if entry.is_dir():
        return "/"
    if entry.is_symlink():
        return "@"
    return ""


def render_listing(root, rel) -> str:
    folder = _resolve_folder(root, rel)
    with os.scandir(folder) as it:
        entries = sorted(it, key=lambda e: e.name)
    return "".join(_escape_name(e.name) + _suffix(e) + "\n" for e in entries)
