from pathutil import safe_join


def read_upload(base_dir, name) -> bytes:
    return safe_join(base_dir, name).read_bytes()
