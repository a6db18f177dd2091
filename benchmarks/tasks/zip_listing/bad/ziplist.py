import zipfile


def list_zip(path: str) -> str:
    """The listing of the zip at `path`, one line per member, then the totals."""
    with zipfile.ZipFile(path) as archive:
        members = archive.infolist()
    lines = [f"{m.file_size:>10}  {m.filename}\n" for m in members]
    total = sum(m.file_size for m in members)
    lines.append(f"{len(members)} members, {total} bytes\n")
    return "".join(lines)
