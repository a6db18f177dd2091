import os
import zipfile


def extract_csvs(zip_path, dest_dir):
    written = []
    with zipfile.ZipFile(zip_path) as zf:
        for info in zf.infolist():
            name = info.filename
            if info.is_dir() or not name.lower().endswith(".csv"):
                continue
            if ".." in name.split("/"):
                continue
            target = os.path.join(dest_dir, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as fh:
                fh.write(zf.read(info))
            written.append(name)
    return sorted(written)
