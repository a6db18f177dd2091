import shlex


def archive_command(folder, archive, excludes=()):
    args = ["tar", "-czf", archive]
    args += [f"--exclude={p}" for p in excludes if p]  # an empty pattern excludes nothing anyway
    return shlex.join(args + ["-C", folder, "."])
