from pathlib import Path


def _show(raw: bytes) -> str:
    text = []
    for b in raw:
        if b == ord("\\"):
            text.append("\\\\")
        elif 32 <= b < 127:
            text.append(chr(b))
        else:
            text.append("\\x%02x" % b)
    return "".join(text)


def render_listing(root, rel):
    base = Path(root).resolve()
    folder = (base / rel).resolve()
    if folder != base and base not in folder.parents:
        raise ValueError("outside the share")
    if not folder.is_dir():
        raise FileNotFoundError("no such folder")
    rows = []
    for child in folder.iterdir():
        raw = bytes(child)[len(bytes(folder)):].lstrip(b"/")
        kind = "@" if child.is_symlink() else "/" if child.is_dir() else ""
        rows.append((raw, _show(raw) + kind))
    rows.sort()
    return "".join(r + "\n" for _, r in rows)
