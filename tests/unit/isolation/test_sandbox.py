"""A spawned process as the sandbox runs it: the CPU of its child and what the child waited for, a
wait that times out as Popen's does, and a group killed and reaped. Real processes."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from pytest_ponybench.isolation.sandbox import Spawned, kill_group


def test_spawned_reports_the_cpu_of_its_child_and_what_the_child_waited_for() -> None:
    busy = "import subprocess, sys\nsubprocess.run([sys.executable, '-c', 'sum(range(10**7))'])\n"
    child = Spawned(subprocess.Popen([sys.executable, "-c", busy]))
    assert child.wait(timeout=60) == 0
    assert child.cpu_s is not None and child.cpu_s > 0.1  # the grandchild's sum is in it


def test_spawned_wait_times_out_like_popen_and_kill_group_still_reaps() -> None:
    child = Spawned(
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    )
    with pytest.raises(subprocess.TimeoutExpired):
        child.wait(timeout=0.1)
    kill_group(child, grace_s=0.1)
    assert child.returncode == -signal.SIGTERM and child.cpu_s is not None


def test_spawned_wait_returns_at_the_end_and_again_after_it() -> None:
    child = Spawned(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.3)"]))
    with pytest.raises(subprocess.TimeoutExpired):
        child.wait(timeout=0)  # still running: a zero timeout does not block
    assert child.wait(timeout=60) == 0 and child.cpu_s is not None
    assert child.wait(timeout=0) == 0  # ended: the same status, no timeout


def test_spawned_wait_of_a_child_reaped_elsewhere_takes_popen_status() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    child = Spawned(proc)
    assert proc.wait(timeout=60) == 3  # reaped by Popen, not by the Spawned
    assert child.wait(timeout=5) == 3 and child.cpu_s is None
