import os
import re
import zipfile

CSV = re.compile(r"\.csv$", re.IGNORECASE)


def extract_csvs(zip_path, dest_dir):
    dest = os.path.realpath(dest_dir)
    out = []
    with zipfile.ZipFile(zip_path) as zf:
        for info in zf.infolist():
            if info.is_dir() or not CSV.search(info.filename):
                continue
            target = os.path.realpath(os.path.join(dest, info.filename))
            if os.path.commonpath([dest, target]) != dest:
                raise ValueError(f"unsafe member {info.filename!r}")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with zf.open(info) as src, open(target, "wb") as dst:
                dst.write(src.read())
            out.append(os.path.relpath(target, dest).replace(os.sep, "/"))
    return sorted(out)
