SPECIAL = " \t\n\"'\\$`;&*?[]~#(){}!="


def esc(arg):
    if arg == "":
        return "''"
    out = ""
    for c in arg:
        if c == "\n":
            out += "'\n'"
        elif c in SPECIAL:
            out += "\\" + c
        else:
            out += c
    return out


def archive_command(folder, archive, excludes=()):
    cmd = ["tar", "-czf", esc(archive)]
    cmd += ["--exclude=" + esc(p) for p in excludes]
    cmd += ["-C", esc(folder), "."]
    return " ".join(cmd)
