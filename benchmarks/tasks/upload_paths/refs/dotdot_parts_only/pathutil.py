from pathlib import Path


def safe_join(base_dir, name):
    if ".." in Path(name).parts:
        raise ValueError(f"{name!r} goes up a directory")
    return Path(base_dir) / name
