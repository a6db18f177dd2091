"""A plain-text listing of one folder of the file share, safe to print in a terminal."""

import os
from pathlib import Path


def _escape(name: bytes) -> str:
    out = []
    for b in name:
        if b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b <= 0x7E:
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "".join(out)


def render_listing(root: str | Path, rel: str) -> str:
    base = os.path.realpath(root)
    # realpath follows every link on the way, so a link that leaves the share is seen as outside
    target = os.path.join(base, rel)
    if not os.path.isdir(target):
        raise FileNotFoundError(f"no such folder in the share: {rel!r}")
    target = os.path.realpath(target)
    if os.path.commonpath([base, target]) != base:
        raise ValueError(f"not a folder of the share: {rel!r}")
    if not os.path.isdir(target):
        raise FileNotFoundError(f"no such folder in the share: {rel!r}")
    lines = []
    with os.scandir(os.fsencode(target)) as entries:
        for entry in entries:
            if entry.is_symlink():
                mark = "@"
            elif entry.is_dir(follow_symlinks=False):
                mark = "/"
            else:
                mark = ""
            lines.append((entry.name, _escape(entry.name) + mark + "\n"))
    return "".join(line for _, line in sorted(lines))
