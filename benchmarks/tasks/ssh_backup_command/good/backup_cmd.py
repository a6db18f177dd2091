"""The command line ssh runs on a backup host, quoted for the host's /bin/sh."""

import shlex
from collections.abc import Iterable


def archive_command(folder: str, archive: str, excludes: Iterable[str] = ()) -> str:
    args = ["tar", "-czf", archive]
    args += [f"--exclude={pattern}" for pattern in excludes]
    args += ["-C", folder, "."]
    return shlex.join(args)
