import re
from zipfile import ZipFile

CONTROL = re.compile("[\x07\x08\x09\x0a\x0d\x1b\x7f\x9b]")  # bell, backspace, tab, newline, CR, escape, DEL, CSI


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
