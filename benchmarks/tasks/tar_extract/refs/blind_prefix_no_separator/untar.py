"""Unpack a user's theme archive."""

import os
import shutil
import tarfile


def extract_theme(tar_path, dest_dir) -> list[str]:
    dest = os.path.realpath(dest_dir)
    os.makedirs(dest, exist_ok=True)
    extracted = []
    with tarfile.open(tar_path, "r:gz") as tar:
        for member in tar.getmembers():
            if not member.isreg():
                continue
            target = os.path.realpath(os.path.join(dest, member.name))
            if not target.startswith(dest):
                continue  # would land outside dest_dir
            os.makedirs(os.path.dirname(target), exist_ok=True)
            source = tar.extractfile(member)
            with source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)
            extracted.append(os.path.relpath(target, dest).replace(os.sep, "/"))
    return sorted(extracted)
