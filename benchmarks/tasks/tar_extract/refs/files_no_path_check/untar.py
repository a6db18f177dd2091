import tarfile
from pathlib import Path


def extract_theme(tar_path, dest_dir):
    Path(dest_dir).mkdir(parents=True, exist_ok=True)
    with tarfile.open(tar_path) as tf:
        files = [m for m in tf.getmembers() if m.isfile()]
        tf.extractall(dest_dir, members=files)
    return sorted(m.name for m in files)
