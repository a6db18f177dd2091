import zipfile


def list_zip(path: str) -> str:
    with zipfile.ZipFile(path) as zf:
        infos = zf.infolist()
    rows = []
    for info in infos:
        name = "".join(c if c.isascii() and c.isprintable() else "?" for c in info.filename)
        rows.append(f"{info.file_size:>10}  {name}\n")
    rows.append(f"{len(infos)} members, {sum(i.file_size for i in infos)} bytes\n")
    return "".join(rows)
