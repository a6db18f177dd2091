import os
from pathlib import Path


def safe_join(base_dir, name):
    base = os.path.realpath(base_dir)
    target = os.path.realpath(os.path.join(base, name))
    if os.path.commonpath([base, target]) != base:
        raise ValueError(f"{name!r} is outside the upload folder")
    return Path(target)
