import os

from pathutil import safe_join


def read_upload(base_dir, name) -> bytes:
    # A missing file is the common case: say so before anything else.
    if not os.path.isfile(os.path.join(base_dir, name)):
        raise FileNotFoundError(name)
    with open(safe_join(base_dir, name), "rb") as f:
        return f.read()
