"""Extract the CSV reports of an uploaded zip."""

import os
import zipfile


def extract_csvs(zip_path, dest_dir) -> list[str]:
    base = os.path.abspath(dest_dir)
    os.makedirs(base, exist_ok=True)
    extracted = []
    with zipfile.ZipFile(zip_path) as zf:
        for name in zf.namelist():
            if not name.lower().endswith(".csv"):
                continue
            path = os.path.abspath(os.path.join(base, name))
            if not path.startswith(base):
                raise ValueError(f"unsafe path in archive: {name}")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(zf.read(name))
            extracted.append(os.path.relpath(path, base).replace(os.sep, "/"))
    return sorted(extracted)
