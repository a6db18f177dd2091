"""Tests for `session/interrupts.py`: a SIGTERM becomes KeyboardInterrupt in the main thread, so
every `finally` runs (a real signal to this process)."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from pytest_ponybench.session import interrupts


def test_sigterm_raises_keyboard_interrupt_naming_the_signal() -> None:
    before = signal.getsignal(signal.SIGTERM)
    try:
        interrupts.install()
        ran_finally = False
        with pytest.raises(KeyboardInterrupt, match="received SIGTERM"):
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(10)  # the handler ends it; were there none, the sleep would end
            finally:
                ran_finally = True
        assert ran_finally
    finally:
        signal.signal(signal.SIGTERM, before)


def test_outside_the_main_thread_nothing_is_installed() -> None:
    before = signal.getsignal(signal.SIGTERM)
    errors: list[BaseException] = []

    def install() -> None:
        try:
            interrupts.install()
        except BaseException as e:  # signal.signal would raise ValueError here
            errors.append(e)

    worker = threading.Thread(target=install)
    worker.start()
    worker.join()
    assert errors == [] and signal.getsignal(signal.SIGTERM) == before
