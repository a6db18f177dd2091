"""Build the remote tar command that ssh hands to the backup host's /bin/sh."""

# Characters the shell would otherwise interpret; each one gets a backslash.
_SPECIAL = set(" \t\"'\\$`;*?[]~#!{}")


def _escape(arg: str) -> str:
    out = []
    for ch in arg:
        if ch == "\n":
            # a backslash-newline is a line continuation, so quote it instead
            out.append("'\n'")
        elif ch in _SPECIAL:
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out) if arg else "''"


def archive_command(folder, archive, excludes=()) -> str:
    parts = ["tar", "-czf", _escape(archive)]
    for pattern in excludes:
        parts.append("--exclude=" + _escape(pattern))
    parts += ["-C", _escape(folder), "."]
    return " ".join(parts)
