import os
import tarfile


def extract_theme(tar_path, dest_dir):
    os.makedirs(dest_dir, exist_ok=True)
    with tarfile.open(tar_path) as tf:
        files = [m for m in tf.getmembers() if m.isreg()]
        tf.extractall(dest_dir, members=files, filter="data")
    return sorted(m.name.lstrip("/") for m in files)
