import re
from zipfile import ZipFile

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def list_zip(path):
    out = []
    count = size = 0
    with ZipFile(path) as zf:
        for info in zf.infolist():
            count += 1
            size += info.file_size
            out.append(str(info.file_size).rjust(10) + "  " + CONTROL.sub("?", info.filename) + "\n")
    out.append(f"{count} members, {size} bytes\n")
    return "".join(out)
