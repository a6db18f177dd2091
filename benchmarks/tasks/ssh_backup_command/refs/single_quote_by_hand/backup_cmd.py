def sq(text):
    # inside single quotes nothing is special; a quote ends them, so close, escape it, reopen
    return "'" + text.replace("'", "'\\''") + "'"


def archive_command(folder, archive, excludes=()):
    words = ["tar", "-czf", sq(archive)]
    words.extend(sq("--exclude=" + p) for p in excludes)
    words.extend(["-C", sq(folder), "."])
    return " ".join(words)
