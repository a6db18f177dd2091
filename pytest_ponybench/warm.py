"""The harness's side of the warm scorer (`_probe/warm_scorer.py`): start it, hand it a scoring.

Starting Python and importing pytest is most of what a scoring costs (about 0.25 s of CPU of
the 0.3 s a small task's checks take). The warm scorer pays it once per harness process and
forks a fresh child per scoring, which gets the same sandbox as the cold path (see
`sandbox.run_sandboxed`): it is used only where it can apply the same namespaces the cold path
would, and the cold path stays for everything else. ``PONYBENCH_SCORER=cold`` turns it off.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import select
import socket
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

SOURCE = Path(__file__).parent / "_probe" / "warm_scorer.py"
ENV_SWITCH = "PONYBENCH_SCORER"
START_TIMEOUT_S = 30.0
PYTEST_ARGV = ("-P", "-m", "pytest")  # after sys.executable: the only command it runs


@functools.cache
def take_source() -> str:
    """Read once per process, with the probe: later edits on disk change nothing."""
    return SOURCE.read_text(encoding="utf-8")


class WarmChild:
    """One scoring's child, as the harness sees it: a pid to signal, a status to wait for."""

    def __init__(self, scorer: WarmScorer, pid: int) -> None:
        self._scorer = scorer
        self.pid = pid
        self.returncode: int | None = None
        self.cpu_s: float | None = None

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is not None:
            return self.returncode
        msg = self._scorer.receive(timeout)
        if msg is None:
            raise subprocess.TimeoutExpired("warm scorer child", timeout or 0.0)
        status = msg.get("status")
        if isinstance(status, int):
            self.returncode = os.waitstatus_to_exitcode(status)
            cpu = msg.get("cpu_s")
            self.cpu_s = float(cpu) if isinstance(cpu, int | float) else None
        else:  # the zygote went away: its children died with it (their death signal)
            self.returncode = -9
        self._scorer.done()
        return self.returncode


class WarmScorer:
    """A running zygote; one scoring at a time."""

    def __init__(self, proc: subprocess.Popen[bytes], sock: socket.socket, isolated: tuple[str, ...]) -> None:
        self._proc = proc
        self._sock = sock
        self.isolated = isolated
        self.lock = threading.Lock()
        self.broken = False

    @property
    def pid(self) -> int:
        return self._proc.pid

    @classmethod
    def start(cls, death_prefix: Sequence[str], env: Mapping[str, str], shim: str) -> WarmScorer | None:
        """Start a zygote and wait until it is warm; None when it cannot start. shim is the
        cold path's exec shim's source: the zygote limits each child with its `apply`."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            proc = subprocess.Popen(
                [*death_prefix, sys.executable, "-P", "-c", take_source(), str(theirs.fileno()), shim],
                cwd="/",
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                pass_fds=[theirs.fileno()],
            )
        except OSError:
            ours.close()
            return None
        finally:
            theirs.close()
        scorer = cls(proc, ours, ())
        hello = scorer.receive(START_TIMEOUT_S)
        spaces = (hello or {}).get("ready")
        if not isinstance(spaces, list):
            scorer.stop()
            return None
        scorer.isolated = tuple(str(s) for s in spaces)
        return scorer

    def receive(self, timeout: float | None) -> dict[str, Any] | None:
        """The zygote's next message; None on timeout; {} when it is gone or garbled."""
        ready, _, _ = select.select([self._sock], [], [], timeout)
        if not ready:
            return None
        try:
            data = self._sock.recv(1 << 16)
            msg = json.loads(data) if data else {}
        except (OSError, ValueError):
            msg = {}
        if not isinstance(msg, dict) or not msg:
            self.broken = True
            return {}
        return msg

    def done(self) -> None:
        self.lock.release()

    @staticmethod
    def accepts(argv: Sequence[str]) -> bool:
        return len(argv) > 4 and argv[0] == sys.executable and tuple(argv[1:4]) == PYTEST_ARGV

    def spawn(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        limits: Sequence[int],
        cgroup: Path | None,
        stdout: int,
        stderr: int,
        named_fds: Mapping[str, int],
    ) -> WarmChild | None:
        """Start one scoring; None when the zygote is busy or broken (use the cold path).

        The environment's PYTHONPATH is what the cold child would put first on sys.path; the
        named descriptors (their numbers already in env) arrive under the numbers they have
        here, as the cold child inherits them.
        """
        if self.broken or not self.lock.acquire(blocking=False):
            return None
        job = {
            "args": list(argv[4:]),
            "cwd": str(cwd),
            "env": dict(env),
            "path0": env.get("PYTHONPATH", ""),
            "limits": list(limits),
            "cgroup": str(cgroup / "cgroup.procs") if cgroup is not None else "-",
            "slots": list(named_fds.values()),
        }
        try:
            socket.send_fds(self._sock, [json.dumps(job).encode()], [stdout, stderr, *named_fds.values()])
            msg = self.receive(START_TIMEOUT_S)
        except OSError:
            msg = {}
            self.broken = True
        pid = (msg or {}).get("pid")
        if not isinstance(pid, int):
            self.broken = True
            self.lock.release()
            return None
        return WarmChild(self, pid)

    def stop(self) -> None:
        """Close its socket (it exits on that), kill it if it does not, and reap it."""
        self.broken = True
        self._sock.close()
        try:
            self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


_STATE: dict[str, WarmScorer | None] = {}
_START_LOCK = threading.Lock()


def scorer(
    death_prefix: Sequence[str], env: Mapping[str, str], want: tuple[str, ...], shim: str
) -> WarmScorer | None:
    """This process's warm scorer, started on first use; None when it is switched off, could
    not start, or cannot give the namespaces `want` that the cold path gives here."""
    if os.environ.get(ENV_SWITCH, "warm") == "cold":
        return None
    with _START_LOCK:
        current = _STATE.get("scorer")
        if current is not None and current.broken:
            current.stop()
            del _STATE["scorer"]
        if "scorer" not in _STATE:
            started = WarmScorer.start(death_prefix, env, shim)
            if started is not None and started.isolated != want:
                started.stop()
                started = None
            _STATE["scorer"] = started
        return _STATE["scorer"]


def shutdown() -> None:
    """Stop this process's zygote (also done by its death signal when the process ends)."""
    with _START_LOCK:
        current = _STATE.pop("scorer", None)
        if current is not None:
            current.stop()


atexit.register(shutdown)  # a process that never scored has nothing to stop
