"""Unpack a user's theme archive."""

import os
import tarfile


def extract_theme(tar_path, dest_dir) -> list[str]:
    dest = os.path.abspath(dest_dir)
    os.makedirs(dest, exist_ok=True)
    files = []
    with tarfile.open(tar_path, "r:gz") as tar:
        for member in tar.getmembers():
            # Symlinks can point anywhere and directories are created as needed.
            if member.issym() or member.isdir():
                continue
            target = os.path.abspath(os.path.join(dest, member.name))
            if os.path.commonpath([dest, target]) != dest:
                continue
            tar.extract(member, dest, set_attrs=False)
            files.append(os.path.relpath(target, dest).replace(os.sep, "/"))
    return sorted(files)
