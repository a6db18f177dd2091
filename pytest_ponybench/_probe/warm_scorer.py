"""The warm scorer: imports pytest once, then forks a fresh sandboxed child for every scoring.

Started by the harness as ``python -P -c <this source> FD SHIM``; FD is its end of a
SOCK_SEQPACKET socket, SHIM the source of the cold path's exec shim (`limit_exec.py`), whose
`apply` limits each child. It never runs untrusted code itself. For each request it forks C, which
applies what the cold path's wrappers apply (own session, death with its parent, the pids
cgroup, rlimits, SIGXFSZ ignored, new network and PID namespaces), then forks G, PID 1 of the
new namespace, which sets up the environment, descriptors and sys.path the cold
``python -P -m pytest`` would have and runs pytest. When G ends, everything it started ends
with its namespace; C exits as G did, as ``unshare --fork --kill-child`` does. What G sees
matches the cold child (a test compares the two), except /proc/self/environ and cmdline, which
show the zygote's start (its scrubbed environment, this source) since G was forked, not
started.

Messages, JSON, one per packet:
  zygote -> harness  {"ready": [namespaces]}            once, when warm
  harness -> zygote  {"args", "cwd", "env", "path0", "limits", "cgroup", "slots"}
                     with descriptors stdout, stderr, then one for each number in "slots"
  zygote -> harness  {"pid": C}                          at once
  zygote -> harness  {"status": wait status, "cpu_s": C and all it waited for}

Stdlib and pytest only. Python 3.11 has no os.unshare, so the syscalls go through ctypes.
"""

import gc
import importlib
import os
import sys
import types
from collections.abc import Callable
from typing import Any


def _preload() -> frozenset[str]:
    """Import what ``python -m pytest`` imports before it reads a check: pytest and its
    built-in plugins. Returns the module names a fresh child keeps."""
    import runpy  # noqa: F401  (python -m imports it)

    import pytest  # noqa: F401
    from _pytest.config import default_plugins

    for name in default_plugins:
        if name == "stepwise":  # blocked by the scorer's -p no:cacheprovider, never loaded
            continue
        try:
            importlib.import_module("_pytest." + name)
        except ImportError:
            continue
    return frozenset(sys.modules)


KEEP = _preload()
# Out of the collector's sight: a child's gc.collect() (pytest calls it at the end) then walks
# only its own objects and does not copy the zygote's pages by touching them.
gc.freeze()

import ctypes  # noqa: E402  (after the preload: a child drops these again)
import fcntl  # noqa: E402
import json  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402

CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
PR_SET_PDEATHSIG = 1
# The cold path's unshare candidates, in its order: (flags, namespaces it gives).
CANDIDATES = (
    (CLONE_NEWNET | CLONE_NEWPID, ("net", "pid")),
    (CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWPID, ("net", "pid")),
    (CLONE_NEWPID, ("pid",)),
    (CLONE_NEWUSER | CLONE_NEWNET, ("net",)),
)
LIBC = ctypes.CDLL(None, use_errno=True)


def _die_with_parent(parent: int) -> None:
    LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent and os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def _unshare(flags: int) -> None:
    uid, gid = os.getuid(), os.getgid()
    if LIBC.unshare(flags) != 0:
        raise OSError(ctypes.get_errno(), "unshare")
    if flags & CLONE_NEWUSER:  # as unshare --map-root-user
        for name, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"), ("gid_map", f"0 {gid} 1")):
            with open(f"/proc/self/{name}", "w") as fh:
                fh.write(text)


def _mirror_exit(status: int) -> None:
    """End this process as the one it waited for ended: same code, or same signal."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def _probe_isolation() -> list[str]:
    """The first candidate this machine allows, tried in a throwaway child."""
    for flags, spaces in CANDIDATES:
        pid = os.fork()
        if pid == 0:
            try:
                _unshare(flags)
                inner = os.fork()
                if inner == 0:
                    os._exit(0)
                _, status = os.waitpid(inner, 0)
                os._exit(0 if os.waitstatus_to_exitcode(status) == 0 else 1)
            except BaseException:
                os._exit(1)
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) == 0:
            return list(spaces)
    return []


def _place_fds(fds: list[int], slots: list[int]) -> None:
    """stdin from /dev/null, stdout and stderr to the given files, the named descriptors on
    the numbers they had in the harness (as the cold child inherits them); every other
    descriptor (the zygote's socket among them) closed."""
    floor = max([2, *slots]) + 1
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, floor) for fd in fds]  # above every target
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(high[0], 1)
    os.dup2(high[1], 2)
    for slot, fd in zip(slots, high[2:], strict=True):
        os.dup2(fd, slot)
    keep = {0, 1, 2, *slots}
    for name in os.listdir("/proc/self/fd"):
        if int(name) not in keep:
            try:
                os.close(int(name))
            except OSError:
                pass  # the listing's own descriptor, already gone


def _child(
    job: dict[str, Any], fds: list[int], flags: int, zygote: int, limit: Callable[[list[int], str], None]
) -> dict[str, Any]:
    """C: sandbox itself, fork G and wait for it. Returns only in G, with the job to run."""
    os.setsid()
    _die_with_parent(zygote)
    _place_fds(fds, [int(n) for n in job["slots"]])
    limit(job["limits"], job["cgroup"])
    try:
        _unshare(flags)
    except OSError as exc:
        os.write(2, f"warm scorer: {exc}\n".encode())
        os._exit(125)
    pid = os.fork()
    if pid == 0:
        _die_with_parent(0)  # PID 1 of its namespace: getppid() says 0, so no check
        return job
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    _mirror_exit(status)
    raise AssertionError("unreachable")


def serve(sock: socket.socket, flags: int, limit: Callable[[list[int], str], None]) -> dict[str, Any]:
    """The zygote's loop. Returns only in a scoring child; exits when the harness goes."""
    me = os.getpid()
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(sock, 1 << 16, 16)
        except ConnectionError:
            data, fds = b"", []
        if not data:
            os._exit(0)
        job = json.loads(data)
        pid = os.fork()
        if pid == 0:
            sock.detach()  # its descriptor is closed with the rest in _place_fds
            try:
                return _child(job, fds, flags, me, limit)
            except BaseException as exc:  # never back into the zygote's loop
                os.write(2, f"warm scorer: {type(exc).__name__}: {exc}\n".encode())
                os._exit(125)
        for fd in fds:
            os.close(fd)
        sock.send(json.dumps({"pid": pid}).encode())
        while True:
            try:
                _, status, usage = os.wait4(pid, 0)
                break
            except InterruptedError:
                continue
        cpu = usage.ru_utime + usage.ru_stime
        sock.send(json.dumps({"status": status, "cpu_s": round(cpu, 4)}).encode())


def run(job: dict[str, Any]) -> None:
    """G: what ``python -P -m pytest ARGS`` run in the job's folder with its environment is."""
    for name in set(sys.modules) - KEEP:
        del sys.modules[name]
    os.chdir(job["cwd"])
    os.environ.clear()
    os.environ.update(job["env"])
    sys.path[:0] = [p for p in job["path0"].split(os.pathsep) if p]  # as PYTHONPATH would
    import pytest

    entry = os.path.join(os.path.dirname(pytest.__file__), "__main__.py")
    main = types.ModuleType("__main__")
    main.__file__ = entry
    sys.modules["__main__"] = main  # as runpy leaves it for python -m pytest
    sys.argv = [entry, *job["args"]]
    raise SystemExit(pytest.console_main())


def main() -> None:
    sock = socket.socket(fileno=int(sys.argv[1]))
    shim: dict[str, Any] = {"__name__": "ponybench_limit_exec"}  # not __main__: defines, runs nothing
    exec(sys.argv[2], shim)  # the cold path's exec shim, as the harness took it
    spaces = _probe_isolation()
    flags = next((f for f, s in CANDIDATES if list(s) == spaces), 0)
    sock.send(json.dumps({"ready": spaces}).encode())
    job = serve(sock, flags, shim["apply"])
    run(job)


if __name__ == "__main__":
    main()
