"""One session per run dir: a new one claimed atomically, every one held for the session's life.

Sessions started in the same second would pick the same stamp; `claim` makes the folder with
`mkdir` (never `exist_ok`), so each takes the next free name instead (<stamp>, <stamp>-2, ...).

The session that writes a run dir holds an exclusive flock on its OWNER file from before its
first write to its end (the controller process only: xdist workers write under it). What only
reads a run dir whole while it writes elsewhere (a rescore reading the run it scores, a merge
reading its parts, a report written into the run dir) holds it shared. A second holder that
does not fit is refused with the run dir and the holding pid (from /proc/locks). A flock goes
with its process, so a SIGKILLed session leaves a run dir that a later --resume can take.
"""

from __future__ import annotations

import errno
import fcntl
import os
from collections.abc import Callable
from pathlib import Path

from pytest_ponybench.errors import PonybenchError

__all__ = ["OWNER", "Hold", "RunDirInUse", "claim", "hold", "holders"]

# Beside the workers' lock files (.lock, .spend.lock, ...): a dot file, which no reader of a run
# dir takes for a cell, a record or a report.
OWNER = ".session.lock"
_MAX_NAMES = 10_000


class RunDirInUse(PonybenchError):
    """Another live process holds the run dir."""


class Hold:
    """A held run dir; release() is safe to call more than once (closing drops the flock)."""

    def __init__(self, path: Path, fd: int | None, shared: bool) -> None:
        self.path = path
        self.shared = shared
        self._fd = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def holders(lock_file: Path) -> list[tuple[int, str]]:
    """(pid, "writing" | "reading") of each process holding lock_file's flock, from /proc/locks;
    empty where it cannot tell (another pid namespace, no /proc)."""
    try:
        st = lock_file.stat()
        lines = Path("/proc/locks").read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return []
    where = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    found: list[tuple[int, str]] = []
    for line in lines:
        # "1: FLOCK  ADVISORY  WRITE 6339 fe:00:2146465 0 EOF"; a waiter's line has "->"
        fields = line.split()
        if len(fields) < 6 or "->" in fields or fields[1] != "FLOCK" or fields[5] != where:
            continue
        if fields[4].isdigit():
            found.append((int(fields[4]), "writing" if fields[3] == "WRITE" else "reading"))
    return found


def _open(lock_file: Path, shared: bool) -> int | None:
    """The lock file's descriptor (non-inheritable: no child of the session keeps the lock); None
    for a reader of a run dir that cannot be written (read-only media: no session writes it)."""
    try:
        return os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if not shared or exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
    try:
        return os.open(lock_file, os.O_RDONLY)
    except FileNotFoundError:
        return None


def hold(run_dir: Path, who: str, *, shared: bool = False) -> Hold:
    """Hold run_dir for this process (exclusive: the session writing it; shared: one reading it
    whole). `who` begins the refusal (--resume, ponybench merge, ...): a RunDirInUse
    naming the run dir and the pid that holds it, raised at once, never waited for."""
    lock_file = run_dir / OWNER
    try:
        fd = _open(lock_file, shared)
    except OSError as exc:
        raise PonybenchError(f"{who}: the run dir {run_dir} cannot be written: {exc}") from None
    if fd is None:
        return Hold(run_dir, None, shared)
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        found = [h for h in holders(lock_file) if h[0] != os.getpid()] or holders(lock_file)
        os.close(fd)
        by = ", ".join(f"pid {pid}, {what} it" for pid, what in found) or "another process"
        raise RunDirInUse(
            f"{who}: the run dir {run_dir} is in use by another ponybench process ({by}); a run "
            "dir has one writer at a time, and is read whole only while none writes it. Let that "
            "one end (or stop it), then run again."
        ) from None
    except BaseException:
        os.close(fd)
        raise
    return Hold(run_dir, fd, shared)


def claim(out: Path, prefix: str, stamp: Callable[[], str]) -> Hold:
    """A new run dir under out, named prefix + stamp() (or its first free -2, -3, ...), made by
    this process alone and held exclusively before anything is written into it."""
    out.mkdir(parents=True, exist_ok=True)
    base = prefix + stamp()
    for n in range(1, _MAX_NAMES + 1):
        path = out / (base if n == 1 else f"{base}-{n}")
        try:
            path.mkdir()
        except FileExistsError:
            continue
        # New and empty: no one else holds it (a --resume of it is refused for want of run.json).
        return hold(path, "ponybench")
    raise PonybenchError(f"ponybench: {out} holds {_MAX_NAMES} run dirs named {base}*; no free name")
