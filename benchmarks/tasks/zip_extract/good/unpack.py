import zipfile
from pathlib import Path


def extract_csvs(zip_path, dest_dir):
    """Extract the .csv members of `zip_path` under `dest_dir`; refuse members that escape it."""
    dest = Path(dest_dir).resolve()
    written = []
    with zipfile.ZipFile(zip_path) as zf:
        for info in zf.infolist():
            if info.is_dir() or not info.filename.lower().endswith(".csv"):
                continue
            target = (dest / info.filename).resolve()
            if not target.is_relative_to(dest):
                raise ValueError(f"archive member {info.filename!r} would be written outside {dest}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(info))
            written.append(target.relative_to(dest).as_posix())
    return sorted(written)
