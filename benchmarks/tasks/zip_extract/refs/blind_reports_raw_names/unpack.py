"""Extract the CSV reports of an uploaded zip."""

import os
import zipfile


def extract_csvs(zip_path, dest_dir) -> list[str]:
    os.makedirs(dest_dir, exist_ok=True)
    names = []
    with zipfile.ZipFile(zip_path) as zf:
        for info in zf.infolist():
            if info.is_dir() or not info.filename.lower().endswith(".csv"):
                continue
            # ZipFile.extract strips absolute paths and '..' components itself.
            zf.extract(info, dest_dir)
            names.append(info.filename)
    return sorted(names)
