import os
from pathlib import Path


def resolve_inside(base, name):
    root = os.path.abspath(base)
    target = os.path.normpath(os.path.join(root, name))
    if os.path.commonpath([root, target]) != root:
        raise ValueError(f"{name!r} lies outside {root}")
    return Path(target)
