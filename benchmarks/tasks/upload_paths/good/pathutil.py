from pathlib import Path


def safe_join(base_dir, name):
    """The path of `name` inside `base_dir`; ValueError if it would resolve outside it."""
    base = Path(base_dir).resolve()
    target = (base / name).resolve()
    if not target.is_relative_to(base):
        raise ValueError(f"{name!r} is outside the upload directory")
    return target
