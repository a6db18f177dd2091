"""Unpack a user's theme archive."""

import os
import tarfile


def extract_theme(tar_path, dest_dir) -> list[str]:
    os.makedirs(dest_dir, exist_ok=True)
    names = []
    with tarfile.open(tar_path, "r:*") as tar:
        for member in tar:
            if not member.isfile():
                continue
            parts = member.name.replace("\\", "/").split("/")
            if ".." in parts:
                continue  # path traversal
            target = os.path.join(dest_dir, *parts)
            os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
            with tar.extractfile(member) as src, open(target, "wb") as dst:
                dst.write(src.read())
            names.append("/".join(p for p in parts if p and p != "."))
    return sorted(names)
