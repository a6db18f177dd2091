"""Ctrl-C and SIGTERM: turn both into KeyboardInterrupt so every `finally` runs.

pytest handles SIGINT; a SIGTERM (a CI runner cancelling, `kill`) would otherwise end the
process on the spot, orphaning running claude sessions and losing the cell in progress.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

__all__ = ["install"]


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"received {signal.Signals(signum).name}")


def install() -> None:
    """SIGTERM raises KeyboardInterrupt in the main thread (signal handlers can live only there)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_interrupt)
