import shlex


def archive_command(folder, archive, excludes=()):
    parts = ["tar", "-czf", shlex.quote(archive)]
    for p in excludes:
        # patterns are globs: keep * and ? working by quoting only the rest
        parts.append("--exclude=" + "".join(c if c in "*?" else shlex.quote(c) for c in p))
    parts += ["-C", shlex.quote(folder), "."]
    return " ".join(parts)
