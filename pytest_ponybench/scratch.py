"""Cell scratch: one private folder per session process, reaped when its owner is gone.

$TMPDIR/ponybench-<uid>/<pid>-<random>/ holds the workspace and HOME of each running cell (a
logged-in user's copied credentials among them). Both levels are 0700 and must be ours: another
user cannot read a cell, nor plant a folder or link where the next session would write. A session
that was killed (SIGKILL, a worker torn down) cannot clean up; the next one removes every
session folder whose pid no longer runs.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import stat
import tempfile
import uuid
from pathlib import Path

from . import procs


class ScratchError(RuntimeError):
    """The scratch root exists but is not a private folder of ours."""


def root() -> Path:
    return Path(tempfile.gettempdir()).resolve() / f"ponybench-{os.getuid()}"


def _private_dir(path: Path) -> None:
    try:
        path.mkdir(mode=0o700)
    except FileExistsError:
        pass
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
        raise ScratchError(f"{path} is not a folder owned by uid {os.getuid()}; remove it or set TMPDIR")
    if stat.S_IMODE(st.st_mode) != 0o700:
        os.chmod(path, 0o700)


def reap(base: Path) -> list[Path]:
    """Remove session folders under base whose owning process is gone; the ones removed."""
    removed = []
    for entry in base.iterdir() if base.is_dir() else ():
        owner = entry.name.split("-", 1)[0]
        if not owner.isdigit() or int(owner) == os.getpid() or procs.alive(int(owner)):
            continue
        shutil.rmtree(entry, ignore_errors=True)
        removed.append(entry)
    return removed


@functools.cache
def session_dir() -> Path:
    """This process's private scratch folder, made (and leftovers reaped) on first use."""
    base = root()
    _private_dir(base)
    reap(base)
    path = base / f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
    _private_dir(path)
    atexit.register(shutil.rmtree, path, True)
    return path


def new_cell_dir() -> Path:
    """A fresh folder for one cell. Its name is neutral: it reaches the model as the cwd, so it
    must not say which arm or model the session belongs to."""
    return Path(tempfile.mkdtemp(prefix="cell-", dir=session_dir())).resolve()
