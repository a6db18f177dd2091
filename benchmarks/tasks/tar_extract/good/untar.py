import shutil
import tarfile
from pathlib import Path


def extract_theme(tar_path, dest_dir) -> list[str]:
    dest = Path(dest_dir)
    dest.mkdir(parents=True, exist_ok=True)
    root = dest.resolve()
    done = []
    with tarfile.open(tar_path) as tf:
        for member in tf.getmembers():
            if not member.isfile():
                continue
            target = (root / member.name).resolve()
            if not target.is_relative_to(root) or target == root:
                raise ValueError(f"member {member.name!r} would land outside {dest}")
            target.parent.mkdir(parents=True, exist_ok=True)
            src = tf.extractfile(member)
            with src, open(target, "wb") as out:
                shutil.copyfileobj(src, out)
            done.append(target.relative_to(root).as_posix())
    return sorted(done)
