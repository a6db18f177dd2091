import zipfile


def list_zip(path: str) -> str:
    with zipfile.ZipFile(path) as zf:
        infos = zf.infolist()
    rows = []
    for info in infos:
        name = repr(info.filename)[1:-1]  # escapes control characters as \x1b, \n...
        rows.append(f"{info.file_size:>10}  {name}\n")
    rows.append(f"{len(infos)} members, {sum(i.file_size for i in infos)} bytes\n")
    return "".join(rows)
