import os
import zipfile


def extract_csvs(zip_path, dest_dir):
    os.makedirs(dest_dir, exist_ok=True)
    root = os.path.realpath(dest_dir)
    out = []
    with zipfile.ZipFile(zip_path) as archive:
        for member in archive.infolist():
            if member.is_dir() or not member.filename.lower().endswith(".csv"):
                continue
            written = os.path.realpath(archive.extract(member, root))
            if os.path.commonpath([root, written]) != root:
                os.remove(written)
                raise ValueError(f"unsafe member {member.filename!r}")
            out.append(os.path.relpath(written, root).replace(os.sep, "/"))
    return sorted(out)
