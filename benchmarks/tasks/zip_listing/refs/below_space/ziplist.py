import zipfile


def list_zip(path: str) -> str:
    with zipfile.ZipFile(path) as zf:
        infos = zf.infolist()
    rows = []
    for info in infos:
        name = "".join("?" if ord(c) < 32 else c for c in info.filename)
        rows.append(f"{info.file_size:>10}  {name}")
    rows.append(f"{len(infos)} members, {sum(i.file_size for i in infos)} bytes")
    return "\n".join(rows) + "\n"
