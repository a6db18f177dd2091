"""Build the remote tar command that ssh hands to the backup host's /bin/sh."""


def _quote(arg: str) -> str:
    # Wrap in single quotes so nothing inside is expanded by the shell;
    # escape any embedded single quote.
    return "'" + arg.replace("\\", "\\\\").replace("'", "\\'") + "'"


def archive_command(folder, archive, excludes=()) -> str:
    parts = ["tar", "-czf", _quote(archive)]
    for pattern in excludes:
        parts.append("--exclude=" + _quote(pattern))
    parts += ["-C", _quote(folder), "."]
    return " ".join(parts)
