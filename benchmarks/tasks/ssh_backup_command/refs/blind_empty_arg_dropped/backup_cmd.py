"""Build the remote tar command that ssh hands to the backup host's /bin/sh."""

import re

# Arguments made only of these characters need no quoting at all.
_PLAIN = re.compile(r"[A-Za-z0-9_@%+=:,./-]*")


def _quote(arg: str) -> str:
    if _PLAIN.fullmatch(arg):
        return arg
    return "'" + arg.replace("'", "'\"'\"'") + "'"


def archive_command(folder, archive, excludes=()) -> str:
    parts = ["tar", "-czf", _quote(archive)]
    for pattern in excludes:
        parts.append("--exclude=" + _quote(pattern))
    parts += ["-C", _quote(folder), "."]
    return " ".join(parts)
