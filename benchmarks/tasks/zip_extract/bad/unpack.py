import os
import zipfile


def extract_csvs(zip_path, dest_dir):
    """Extract the .csv members of `zip_path` under `dest_dir`."""
    written = []
    with zipfile.ZipFile(zip_path) as zf:
        for name in zf.namelist():
            if not name.lower().endswith(".csv"):
                continue
            target = os.path.join(dest_dir, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as out:
                out.write(zf.read(name))
            written.append(name)
    return sorted(written)
