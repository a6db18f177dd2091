def _dq(s: str) -> str:
    out = []
    for ch in s:
        if ch in '\\"$`':  # the only characters special inside double quotes
            out.append("\\")
        out.append(ch)
    return '"' + "".join(out) + '"'


def archive_command(folder, archive, excludes=()):
    cmd = "tar -czf " + _dq(archive)
    for p in excludes:
        cmd += " " + _dq(f"--exclude={p}")
    return cmd + " -C " + _dq(folder) + " ."
