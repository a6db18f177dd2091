import tarfile
from pathlib import Path


def extract_theme(tar_path, dest_dir):
    dest = Path(dest_dir)
    dest.mkdir(parents=True, exist_ok=True)
    names = []
    with tarfile.open(tar_path) as tf:
        for m in tf.getmembers():
            if m.isfile() and "/" not in m.name and m.name not in ("", ".", ".."):
                (dest / m.name).write_bytes(tf.extractfile(m).read())
                names.append(m.name)
    return sorted(names)
