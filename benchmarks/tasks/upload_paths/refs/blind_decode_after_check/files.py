from pathutil import safe_join


def read_upload(base_dir, name) -> bytes:
    with open(safe_join(base_dir, name), "rb") as f:
        return f.read()
