"""Cell scratch: one private folder per session process, reaped when its owner is gone.

$TMPDIR/ponybench-<uid>/<pid>-<random>/ holds the workspace and HOME of each running cell (a
logged-in user's copied credentials among them). Both levels are 0700 and must be ours: another
user cannot read a cell, nor plant a folder or link where the next session would write. A session
that was killed (SIGKILL, a worker torn down) cannot clean up; the next one removes every
session folder whose pid no longer runs.
"""

from __future__ import annotations

import atexit
import os
import stat
import tempfile
import threading
import uuid
from pathlib import Path

from pytest_ponybench._util import procs, trees
from pytest_ponybench.errors import PonybenchError

__all__ = ["ScratchError", "forget_session", "new_cell_dir", "reap", "root", "session_dir"]


class ScratchError(PonybenchError):
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
        trees.remove(entry)
        removed.append(entry)
    return removed


_SESSION: dict[int, Path] = {}
_MAKING = threading.Lock()


def _fresh_lock() -> None:
    global _MAKING
    _MAKING = threading.Lock()


os.register_at_fork(after_in_child=_fresh_lock)  # a fork while another thread held the lock


def session_dir() -> Path:
    """This process's private scratch folder, made (and leftovers reaped) on first use. A
    forked child (a pool of scorers) gets its own, not its parent's."""
    pid = os.getpid()
    found = _SESSION.get(pid)
    if found is not None:
        return found
    with _MAKING:  # threads asking first at once (the arms' activation checks) share one
        found = _SESSION.get(pid)
        if found is not None:
            return found
        base = root()
        _private_dir(base)
        reap(base)
        path = base / f"{pid}-{uuid.uuid4().hex[:8]}"
        _private_dir(path)
        atexit.register(_remove_own, path, pid)
        _SESSION[pid] = path
        return path


def forget_session() -> None:
    """The next session_dir() makes a new folder (after TMPDIR changed, say); the old one stays."""
    _SESSION.pop(os.getpid(), None)


def _remove_own(path: Path, pid: int) -> None:
    if os.getpid() == pid:  # a forked child's exit must not remove its parent's folder
        trees.remove(path)


def new_cell_dir() -> Path:
    """A fresh folder for one cell. Its name is neutral: it reaches the model as the cwd, so it
    must not say which arm or model the session belongs to."""
    return Path(tempfile.mkdtemp(prefix="cell-", dir=session_dir())).resolve()
