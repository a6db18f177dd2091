"""The HTML report of a run written on a thread of its own.

What follows a run's last cell is mostly waiting: xdist's workers exit (the controller waits for
each process), the terminal summary renders its tables. The report (about 0.1 s of CPU for a
small run, a second for thousands of cells) is written meanwhile, and whoever reads its outcome
(the path, or why it could not be written) waits for it first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

__all__ = ["BackgroundReport"]


class BackgroundReport:
    """`write()` run once on a thread; `outcome()` waits for it. A report that cannot be written
    never fails the run: its error is kept as text, the records are on disk either way."""

    def __init__(self, write: Callable[[], Path]) -> None:
        self._write = write
        self._thread: threading.Thread | None = None
        self._path: Path | None = None
        self._error: str | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="ponybench-report", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            self._path = self._write()
        except Exception as exc:  # `ponybench report RUN_DIR` can try again
            self._error = f"{type(exc).__name__}: {exc}"

    def outcome(self) -> tuple[Path | None, str | None]:
        """(the report's path, None) once written, (None, why) when it failed, (None, None)
        when it was never started."""
        if self._thread is not None:
            self._thread.join()
        return self._path, self._error
