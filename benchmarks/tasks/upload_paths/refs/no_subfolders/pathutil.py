import os
from pathlib import Path


def safe_join(base_dir, name):
    if "/" in name or "\\" in name or name in ("", ".", ".."):
        raise ValueError(f"{name!r} is not a plain file name")
    base = Path(os.path.realpath(base_dir))
    target = Path(os.path.realpath(base / name))
    if target.parent != base:
        raise ValueError(f"{name!r} is outside {base_dir}")
    return target
