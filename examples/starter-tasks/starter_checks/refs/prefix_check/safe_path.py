from pathlib import Path


def resolve_inside(base, name):
    root = Path(base).resolve()
    target = (root / name).resolve()
    if not str(target).startswith(str(root)):
        raise ValueError(f"{name!r} lies outside {root}")
    return target
