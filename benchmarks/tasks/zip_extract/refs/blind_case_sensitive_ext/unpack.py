"""Extract the CSV reports of an uploaded zip."""

import os
import shutil
import zipfile


def extract_csvs(zip_path, dest_dir) -> list[str]:
    dest = os.path.realpath(dest_dir)
    os.makedirs(dest, exist_ok=True)
    out = []
    with zipfile.ZipFile(zip_path) as zf:
        for info in zf.infolist():
            if info.is_dir() or not info.filename.endswith(".csv"):
                continue
            target = os.path.realpath(os.path.join(dest, info.filename))
            if os.path.commonpath([dest, target]) != dest:
                continue  # zip slip
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with zf.open(info) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
            out.append(os.path.relpath(target, dest).replace(os.sep, "/"))
    return sorted(out)
