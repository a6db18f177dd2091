import zipfile
from pathlib import Path, PurePosixPath


def extract_csvs(zip_path, dest_dir):
    dest = Path(dest_dir)
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    with zipfile.ZipFile(zip_path) as zf:
        for info in zf.infolist():
            base = PurePosixPath(info.filename.replace("\\", "/")).name
            if info.is_dir() or not base.lower().endswith(".csv") or base in ("", ".", ".."):
                continue
            (dest / base).write_bytes(zf.read(info))
            written.append(base)
    return sorted(written)
