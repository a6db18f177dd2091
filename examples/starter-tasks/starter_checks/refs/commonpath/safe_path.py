import os
from pathlib import Path


def resolve_inside(base, name):
    root = os.path.realpath(base)
    target = os.path.realpath(os.path.join(root, name))
    if os.path.commonpath([root, target]) != root:
        raise ValueError("outside the base folder: " + str(name))
    return Path(target)
