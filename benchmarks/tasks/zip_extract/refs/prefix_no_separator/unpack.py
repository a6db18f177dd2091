import os
import zipfile


def extract_csvs(zip_path, dest_dir):
    dest = os.path.abspath(dest_dir)
    written = []
    with zipfile.ZipFile(zip_path) as zf:
        for name in zf.namelist():
            if name.endswith("/") or not name.lower().endswith(".csv"):
                continue
            target = os.path.abspath(os.path.join(dest, name))
            if not target.startswith(dest):
                raise ValueError(f"bad member {name!r}")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as fh:
                fh.write(zf.read(name))
            written.append(os.path.relpath(target, dest).replace(os.sep, "/"))
    return sorted(written)
