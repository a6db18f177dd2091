import os
from pathlib import Path


def safe_join(base_dir, name):
    base = os.path.realpath(base_dir)
    target = os.path.realpath(os.path.join(base, name))
    if not target.startswith(base):
        raise ValueError(f"{name!r} is outside {base_dir}")
    return Path(target)
