import os
import tarfile


def extract_theme(tar_path, dest_dir):
    dest = os.path.realpath(dest_dir)
    os.makedirs(dest, exist_ok=True)
    names = []
    with tarfile.open(tar_path) as tf:
        for m in tf.getmembers():
            if not m.isfile():
                continue
            target = os.path.realpath(os.path.join(dest, m.name))
            if not target.startswith(dest):
                raise ValueError(m.name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as out:
                out.write(tf.extractfile(m).read())
            names.append(os.path.relpath(target, dest))
    return sorted(names)
