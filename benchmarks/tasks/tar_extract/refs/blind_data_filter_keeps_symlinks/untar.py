"""Unpack a user's theme archive."""

import os
import tarfile


def extract_theme(tar_path, dest_dir) -> list[str]:
    os.makedirs(dest_dir, exist_ok=True)
    with tarfile.open(tar_path, "r:gz") as tar:
        # The "data" filter (PEP 706) refuses absolute paths, "..", links outside the
        # destination and device files, so untrusted archives are safe to unpack.
        tar.extractall(dest_dir, filter="data")
        return sorted(m.name.lstrip("/") for m in tar.getmembers() if m.isreg())
