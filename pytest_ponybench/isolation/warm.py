"""The harness's side of the warm scorer (`_probe/warm_scorer.py`): start it, hand it a scoring.

Starting Python and importing pytest is most of what a scoring costs (about 0.25 s of CPU of
the 0.3 s a small task's checks take). The warm scorer pays it once per harness process and
forks a fresh child per scoring. It runs inside the same confinement as a cold scoring (see
`sandbox.run_sandboxed`), with its own private folders: the scorings' copies go under a folder
bound writable, their checks and probe under one bound read-only. It serves only a scoring whose
folders lie there; the cold path serves everything else. ``PONYBENCH_SCORER=cold`` turns it off.

Its pids are those of its own PID namespace, never the host's: the harness signals a scoring
through the zygote, never by pid.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import select
import socket
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pytest_ponybench._util.paths import PROBES

__all__ = [
    "ENV_SWITCH",
    "SOURCE",
    "START_TIMEOUT_S",
    "WarmChild",
    "WarmScorer",
    "scorer",
    "shutdown",
    "take_source",
]

SOURCE = PROBES / "warm_scorer.py"
ENV_SWITCH = "PONYBENCH_SCORER"
START_TIMEOUT_S = 30.0


@functools.cache
def take_source() -> str:
    """Read once per process, with the probe: later edits on disk change nothing."""
    return SOURCE.read_text(encoding="utf-8")


class WarmChild:
    """One scoring's child, as the harness sees it: a status to wait for, signals through the
    zygote. `pid` is its pid in the zygote's namespace (for messages only)."""

    def __init__(self, scorer: WarmScorer, pid: int) -> None:
        self._scorer = scorer
        self.pid = pid
        self.returncode: int | None = None
        self.cpu_s: float | None = None
        self.lost = False  # the zygote went away during the scoring (its result is the harness's)

    def signal_tree(self, sig: int) -> None:
        """The scoring's process group; on SIGKILL the zygote also ends the rest of its namespace
        once the child is gone."""
        if self.returncode is None:
            self._scorer.send({"signal": int(sig)})

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
            self.lost = True
        if msg.get("ending") is True:  # it could not empty its folders: replaced before the next
            self._scorer.broken = True
        self._scorer.done()
        return self.returncode


class WarmScorer:
    """A running zygote; one scoring at a time."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        sock: socket.socket,
        roots: tuple[Path, Path],
        on_stop: Callable[[], None],
    ) -> None:
        self._proc = proc
        self._sock = sock
        self.roots = roots  # (scorings' copies: writable, their checks: read-only)
        self._on_stop = on_stop
        self.status: dict[str, str] = {}  # its /proc/self/status capability lines, when warm
        self.in_cgroup = False  # set by the starter: a pids cgroup holds it and all it starts
        self.lock = threading.Lock()
        self.broken = False

    @property
    def pid(self) -> int:
        return self._proc.pid

    @classmethod
    def start(
        cls,
        argv: Sequence[str],
        env: Mapping[str, str],
        pass_fds: Sequence[int],
        roots: tuple[Path, Path],
        on_stop: Callable[[], None],
        config: str,
        shim: str,
    ) -> WarmScorer | None:
        """Start a zygote with argv (its confinement, ending in the python and `-c`) given its
        config (module path, private folders) and the exec shim's source, and wait until it is
        warm; None when it cannot start."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            proc = subprocess.Popen(
                [*argv, take_source(), "zygote", config, str(theirs.fileno()), shim],
                cwd="/",
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                pass_fds=[theirs.fileno(), *pass_fds],
            )
        except OSError:
            ours.close()
            on_stop()
            return None
        finally:
            theirs.close()
        scorer = cls(proc, ours, roots, on_stop)
        hello = scorer.receive(START_TIMEOUT_S)
        if not (hello or {}).get("ready"):
            scorer.stop()
            return None
        found = (hello or {}).get("status")
        scorer.status = {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}
        return scorer

    def send(self, msg: dict[str, Any]) -> None:
        try:
            self._sock.send(json.dumps(msg).encode())
        except OSError:
            self.broken = True

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

    def accepts(self, writable: Sequence[Path], readable: Sequence[Path]) -> bool:
        """Whether a scoring's folders lie where this zygote sees them."""
        jobs, checks = self.roots
        return all(jobs in p.parents for p in writable) and all(
            checks in p.parents or jobs in p.parents for p in readable
        )

    def spawn(
        self,
        job: dict[str, Any],
        *,
        limits: Sequence[int],
        stdout: int,
        stderr: int,
        named_fds: Mapping[str, int],
    ) -> WarmChild | None:
        """Start one scoring; None when the zygote is busy or broken (use the cold path).

        The named descriptors (their numbers already in the job's env) arrive under the numbers
        they have here, as the cold child inherits them.
        """
        if self.broken or not self.lock.acquire(blocking=False):
            return None
        msg = {**job, "limits": list(limits), "slots": list(named_fds.values())}
        try:
            socket.send_fds(self._sock, [json.dumps(msg).encode()], [stdout, stderr, *named_fds.values()])
            reply = self.receive(START_TIMEOUT_S)
        except OSError:
            reply = {}
            self.broken = True
        pid = (reply or {}).get("pid")
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
        self._on_stop()


_STATE: dict[str, Any] = {}
_START_LOCK = threading.Lock()


def scorer(starter: Callable[[], WarmScorer | None]) -> WarmScorer | None:
    """This process's warm scorer, started on first use by starter; None when it is switched
    off or could not start (then the cold path scores)."""
    if os.environ.get(ENV_SWITCH, "warm") == "cold":
        return None
    with _START_LOCK:
        if _STATE.get("pid") != os.getpid():  # a forked child: the zygote is its parent's
            _STATE.clear()
            _STATE["pid"] = os.getpid()
        current = _STATE.get("scorer")
        if current is not None and current.broken:
            current.stop()
            del _STATE["scorer"]
        if "scorer" not in _STATE:
            _STATE["scorer"] = starter()
        found: WarmScorer | None = _STATE["scorer"]
        return found


def shutdown() -> None:
    """Stop this process's zygote (also done by its death signal when the process ends)."""
    with _START_LOCK:
        current = _STATE.pop("scorer", None) if _STATE.get("pid") == os.getpid() else None
        if current is not None:
            current.stop()


atexit.register(shutdown)  # a process that never scored has nothing to stop
