from pathlib import Path


def safe_join(base_dir, name):
    """The path of `name` inside `base_dir`, with any '../' removed."""
    return Path(base_dir) / name.replace("../", "")
