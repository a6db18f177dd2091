import os
from pathlib import Path


def safe_join(base_dir, name):
    base = os.path.abspath(base_dir)
    target = os.path.normpath(os.path.join(base, name))
    if target != base and not target.startswith(base + os.sep):
        raise ValueError(f"{name!r} is outside {base_dir}")
    return Path(target)
