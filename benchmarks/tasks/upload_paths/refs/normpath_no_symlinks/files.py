from pathutil import safe_join


def read_upload(base_dir, name):
    """Content of the uploaded file `name` under `base_dir`."""
    return safe_join(base_dir, name).read_bytes()
