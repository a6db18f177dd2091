import os
from pathlib import Path
from urllib.parse import unquote


def safe_join(base_dir, name):
    if os.path.isabs(name) or ".." in name.replace("\\", "/").split("/"):
        raise ValueError(f"bad name {name!r}")
    # The name comes from the URL: decode %20 and friends.
    base = Path(os.path.realpath(base_dir))
    target = Path(os.path.realpath(base / unquote(name)))
    if target != base and base not in target.parents:
        raise ValueError(f"bad name {name!r}")
    return target
