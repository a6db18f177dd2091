"""Extract the CSV reports of an uploaded zip."""

import os
import zipfile


def extract_csvs(zip_path, dest_dir) -> list[str]:
    os.makedirs(dest_dir, exist_ok=True)
    result = []
    with zipfile.ZipFile(zip_path) as zf:
        for info in zf.infolist():
            name = info.filename
            if not name.lower().endswith(".csv"):
                continue
            if ".." in name.split("/"):
                continue  # skip path traversal
            target = os.path.join(dest_dir, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as fh:
                fh.write(zf.read(info))
            result.append(name)
    return sorted(result)
