import tarfile
from pathlib import Path


def extract_theme(tar_path, dest_dir):
    dest = Path(dest_dir)
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tar_path) as tf:
        tf.extractall(dest)
        names = [m.name for m in tf.getmembers() if m.isfile()]
    return sorted(names)
