"""Start slots: at most one claude start-up per core at a time, across every xdist worker.

A session's start is a burst of local CPU (Node loading the CLI: about half a second, half of
all the CPU an offline session uses); after it the session mostly waits on the API. With more
workers than cores, the cells of a wave start together, their bursts share the cores, and they
all finish late and together, so the next wave collides again. Taken in turn, the starts end
in turn: each waits a little once, and the waves after it stay spread out. A slot is an flock
on a file in the run dir, so a worker that dies lets its slot go.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from typing import IO

__all__ = ["POLL_S", "Slot", "StartSlots", "cores"]

POLL_S = 0.02


def cores() -> int:
    """The cores this process may run on (a container's cpuset, not the host's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Slot:
    """A held slot; release() is safe to call more than once."""

    def __init__(self, handle: IO[str] | None, waited_s: float) -> None:
        self._handle = handle
        self.waited_s = waited_s

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()  # closing the file drops its flock
            self._handle = None


class StartSlots:
    def __init__(self, run_dir: Path, count: int | None = None) -> None:
        self.paths = [run_dir / f".start-slot-{i}.lock" for i in range(count or cores())]

    def take(self, give_up_s: float = 60.0) -> Slot:
        """The first free slot, polled for; after give_up_s an unheld Slot (never a deadlock)."""
        began = time.monotonic()
        while True:
            for path in self.paths:
                handle = open(path, "a")  # noqa: SIM115  (held until release)
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    handle.close()
                    continue
                return Slot(handle, time.monotonic() - began)
            if time.monotonic() - began >= give_up_s:
                return Slot(None, time.monotonic() - began)
            time.sleep(POLL_S)
