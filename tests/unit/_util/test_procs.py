"""The process table: a group's members and a process's descendants, on a real process tree."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from pytest_ponybench._util import procs


def test_group_members_and_descendants_of_a_real_process_tree() -> None:
    # A parent in its own group that starts a grandchild: both are seen, by group and by tree.
    sleep = "import time; time.sleep(30)"
    code = f"import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', {sleep!r}])\n{sleep}"
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while len(procs.group_members(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        members = procs.group_members(proc.pid)
        assert proc.pid in members and len(members) == 2
        below = procs.descendants(os.getpid(), procs.processes())
        assert set(members) <= below
        mine = procs.read(proc.pid)
        assert mine is not None and mine.ppid == os.getpid() and mine.pgid == proc.pid
        assert procs.cmdline(proc.pid)[:2] == [sys.executable, "-c"]
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()
    deadline = time.monotonic() + 5
    while procs.group_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert procs.group_members(proc.pid) == []
    assert procs.read(2**22 + 1) is None  # beyond pid_max: gone, not an error
