"""The scorer's python: runs the checks once (cold), or imports pytest once and forks a fresh child
per scoring (the warm scorer, a zygote). Both run the same `run` below, so a check sees the
same process either way.

The harness starts it isolated (``python -I -S -B``: no .pth file, sitecustomize, user site or
PYTHON* variable runs or counts) inside the scorer's confinement, and gives it the module path
it would otherwise get from `site`:

    python -I -S -B -c <this source> once   CONFIG JOB      run one scoring, then exit
    python -I -S -B -c <this source> zygote CONFIG FD SHIM  serve scorings on socket FD

CONFIG (JSON): {"path": [folders appended to sys.path: the harness's site-packages],
"wipe": [private folders emptied after each scoring], "keep": [bound folders inside those]}.
JOB (JSON): {"args", "cwd", "env", "path0", "limits", "slots"}: pytest's arguments, the folder
and environment to run in, folders put first on sys.path (the probe's), and for the zygote the
limits (applied with SHIM's `apply`, the cold path's exec shim) and the descriptor numbers.

Once warm, and before the first scoring, the zygote runs one pytest session of its own (a
trivial test in its private /tmp, removed after) so each child starts where a cold session
stands when its first check runs, without importing pdb and the rest again (4-7 ms of a
scoring's 40-47 ms of CPU).

The zygote is PID 1 of its own PID namespace. For each job it forks C, which sets up its
session, descriptors and limits and runs the checks; when C ends, every other process of the
namespace is killed and reaped and the private /tmp and /dev/shm are emptied (folders the scoring
made read-only or unreadable unlocked first), so nothing of one scoring reaches the next; when
something cannot be removed, the zygote ends after answering, and the harness starts another.
It holds no capability (the confinement dropped them), is not dumpable (no process of a scoring
can trace it or read its memory), and never runs untrusted code itself.

Messages, JSON, one per packet:
  zygote -> harness  {"ready": true, "status": {CapEff...}}   once, when warm
  harness -> zygote  JOB, with descriptors stdout, stderr, then one for each number in "slots"
  zygote -> harness  {"pid": C}                                 at once (a pid of its namespace)
  harness -> zygote  {"signal": N}                              end the scoring's processes
  zygote -> harness  {"status": wait status, "cpu_s": C and all it waited for,
                      "ending": true when it ends after this answer}

Stdlib and pytest only.
"""

import atexit
import gc
import importlib
import json
import os
import sys
import types
from collections.abc import Callable
from typing import Any


def _config() -> dict[str, Any]:
    config: dict[str, Any] = json.loads(sys.argv[2])
    sys.path += [p for p in config["path"] if p not in sys.path]
    return config


def _preload() -> frozenset[str]:
    """Import what pytest imports before it reads a check: pytest and its built-in plugins.
    Returns the module names a fresh child keeps."""
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


def run(job: dict[str, Any], keep: frozenset[str]) -> None:
    """What ``python -m pytest ARGS`` run in the job's folder with its environment is."""
    for name in set(sys.modules) - keep:
        del sys.modules[name]
    os.chdir(job["cwd"])
    os.environ.clear()
    os.environ.update(job["env"])
    sys.path[:0] = [p for p in job["path0"] if p]
    import pytest

    entry = os.path.join(os.path.dirname(pytest.__file__), "__main__.py")
    main = types.ModuleType("__main__")
    main.__file__ = entry
    sys.modules["__main__"] = main  # as runpy leaves it for python -m pytest
    sys.argv = [entry, *job["args"]]
    code = pytest.main(job["args"])  # what python -m pytest runs, less console_main's deprecation
    leave(int(code))


def leave(code: int) -> None:
    """End as python's own exit does (wait for the threads that are not daemons, run the atexit
    handlers, flush stdout and stderr: an error there makes the status 120), less the
    interpreter's teardown. That teardown frees every object, and in a child of the zygote it
    would first copy each page it touches: 40% of a scoring's page faults and a fifth of its CPU.
    Nothing of it reaches the harness: the probe's lines were sent when pytest finished."""
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()  # what python's exit calls first
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            code = 120
    os._exit(code)


def _once() -> None:
    _config()
    job: dict[str, Any] = json.loads(sys.argv[3])
    # The cold path's limits were applied by the exec shim before the confinement started.
    run(job, frozenset(sys.modules) | {"__main__"})


if sys.argv[1:2] == ["once"]:
    _once()

# --- the zygote ------------------------------------------------------------------------------
CONFIG = _config()
KEEP = _preload()
# Out of the collector's sight: a child's gc.collect() (pytest calls it at the end) then walks
# only its own objects and does not copy the zygote's pages by touching them.
gc.freeze()

import ctypes  # noqa: E402  (after the preload: a child drops these again)
import fcntl  # noqa: E402
import re  # noqa: E402
import select  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import stat  # noqa: E402

PR_SET_PDEATHSIG, PR_SET_DUMPABLE = 1, 4
LIBC = ctypes.CDLL(None, use_errno=True)


def _status_fields() -> dict[str, str]:
    out = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            name, _, value = line.partition(":")
            if name.startswith("Cap") or name in ("NoNewPrivs", "Seccomp"):
                out[name] = value.strip()
    return out


def _die_with_parent(parent: int) -> None:
    LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


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


def _child(job: dict[str, Any], fds: list[int], zygote: int, limit: Callable[[list[int], str], None]) -> None:
    """C: its own session, death with the zygote, the job's descriptors and limits."""
    os.setsid()
    _die_with_parent(zygote)
    _place_fds(fds, [int(n) for n in job["slots"]])
    limit(job["limits"], "-")  # the zygote's pids cgroup holds it already


def _remove(path: str) -> None:
    """Remove path and all below it, also what a scoring made unreadable or unwritable: a folder
    of mode 0o555 or 0o000 (a tar's "." entry, a check's own test) is made the owner's again
    first. The zygote has no capability to pass a mode by, but it owns every file a scoring made."""
    try:
        st = os.lstat(path)
    except OSError:
        return
    if not stat.S_ISDIR(st.st_mode):
        os.unlink(path)
        return
    os.chmod(path, 0o700)
    for name in os.listdir(path):
        _remove(os.path.join(path, name))
    os.rmdir(path)


def _empty(folder: str, keep: list[str]) -> bool:
    """Remove everything under folder but the folders in keep and the folders that lead to them.
    Whether nothing else is left."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return False
    whole = True
    for entry in entries:
        path = entry.path
        if path in keep:
            continue
        if any(k.startswith(path + "/") for k in keep):
            whole = _empty(path, keep) and whole
            continue
        try:
            _remove(path)
        except (OSError, RecursionError):  # a tree deeper than the stack: left, so reported
            whole = False
    return whole


def _mounted_under(folders: list[str]) -> list[str]:
    """The mount points below folders: the sandbox's binds that lie there (the scorings' roots, a
    python install under /tmp). Emptying a folder never touches them: they are not the
    scoring's, and a read-only one cannot be removed, which would end the zygote every time."""
    points = []
    with open("/proc/self/mountinfo") as fh:
        for line in fh:
            # The fifth field; mountinfo writes a space, tab, newline or backslash as \ooo.
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), line.split()[4])
            if any(point.startswith(f.rstrip("/") + "/") for f in folders):
                points.append(point)
    return points


# What emptying leaves, read once at start (a scoring has no capability to mount): the roots and
# every mount point below the private folders.
KEEP_MOUNTED = [*CONFIG["keep"], *_mounted_under(CONFIG["wipe"])]


def _end_namespace() -> bool:
    """Kill every process of this PID namespace but this one, reap them, empty the private
    folders. Only as PID 1: kill(-1) then reaches exactly the namespace's other processes.
    Whether the private folders are empty again."""
    if os.getpid() == 1:
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        while True:
            try:
                os.waitpid(-1, 0)
            except ChildProcessError:
                break
            except InterruptedError:
                continue
    return all([_empty(folder, KEEP_MOUNTED) for folder in CONFIG["wipe"]])  # a list: each is emptied


def _wait(sock: socket.socket, pid: int) -> tuple[int, float]:
    """C's wait status and CPU, passing on the harness's signals meanwhile."""
    pidfd = os.pidfd_open(pid)
    try:
        while True:
            ready, _, _ = select.select([sock.fileno(), pidfd], [], [])
            if sock.fileno() in ready:
                try:
                    data = sock.recv(1 << 16)
                except ConnectionError:
                    data = b""
                if not data:
                    os._exit(0)  # the harness is gone: so is everything here
                sig = json.loads(data).get("signal")
                if isinstance(sig, int):
                    try:
                        os.killpg(pid, sig)
                    except OSError:
                        pass
            if pidfd in ready:
                _, status, usage = os.wait4(pid, 0)
                return status, usage.ru_utime + usage.ru_stime
    finally:
        os.close(pidfd)


def serve(sock: socket.socket, limit: Callable[[list[int], str], None]) -> dict[str, Any]:
    """The zygote's loop. Returns only in a scoring child, with the job it is to run."""
    me = os.getpid()
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(sock, 1 << 16, 16)
        except ConnectionError:
            data, fds = b"", []
        if not data:
            os._exit(0)
        job: dict[str, Any] = json.loads(data)
        pid = os.fork()
        if pid == 0:
            sock.detach()  # its descriptor is closed with the rest in _place_fds
            try:
                _child(job, fds, me, limit)
                return job
            except BaseException as exc:  # never back into the zygote's loop
                os.write(2, f"warm scorer: {type(exc).__name__}: {exc}\n".encode())
                os._exit(125)
        for fd in fds:
            os.close(fd)
        sock.send(json.dumps({"pid": pid}).encode())
        status, cpu = _wait(sock, pid)
        emptied = _end_namespace()
        # When something of this scoring could not be removed (it would be there for the next
        # one), this zygote ends, and says so with the status: the harness starts another
        # before its next scoring instead of finding this one gone.
        ending = {} if emptied else {"ending": True}
        sock.send(json.dumps({"status": status, "cpu_s": round(cpu, 4), **ending}).encode())
        if not emptied:
            os._exit(3)


WARM_UP_TEST = "def test_warm_up(tmp_path):\n    assert (tmp_path / 'x').exists() is False\n"


class _Seen:
    """Records the modules present when the warm-up's test runs."""

    def __init__(self) -> None:
        self.modules: frozenset[str] = frozenset()

    def pytest_runtest_call(self) -> None:
        self.modules = frozenset(sys.modules)


def warm_up(private_tmp: str) -> frozenset[str]:
    """Run one pytest session of our own (one trivial test, the scorings' options) before the
    first fork, so what every session imports before its first test runs (pdb, faulthandler,
    ...) is imported once here, and pytest's caches are filled. Returns those modules: a
    scoring child keeps them, and is then as far as a cold one is when its first check runs.
    Everything else it touched is put back (path, environment, import caches) and its folder
    removed; nothing of it reaches a check."""
    folder = os.path.join(private_tmp, "ponybench-warm-up-" + os.urandom(6).hex())
    os.mkdir(folder, 0o700)
    path, environ = list(sys.path), dict(os.environ)
    before = frozenset(sys.modules)
    seen = _Seen()
    try:
        with open(os.path.join(folder, "test_warm_up.py"), "w") as fh:
            fh.write(WARM_UP_TEST)
        with open(os.path.join(folder, "pytest.ini"), "w") as fh:
            fh.write("[pytest]\naddopts =\n")
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # as every scoring runs
        import pytest

        args = ["-q", "-p", "no:cacheprovider", "-c", os.path.join(folder, "pytest.ini")]
        args += ["--rootdir", folder, "--basetemp", os.path.join(folder, "tmp"), folder]
        with open(os.devnull, "w") as sink:
            saved = sys.stdout, sys.stderr
            sys.stdout = sys.stderr = sink
            try:
                code = pytest.main(args, plugins=[seen])
            finally:
                sys.stdout, sys.stderr = saved
    except Exception:  # then no child keeps anything of it: each imports as before
        code = -1
    finally:
        sys.path[:] = path
        os.environ.clear()
        os.environ.update(environ)
        shutil.rmtree(folder)  # raises if it cannot: the zygote then ends, and scorings go cold
    for name, module in list(sys.modules.items()):
        if (getattr(module, "__file__", None) or "").startswith(folder):
            del sys.modules[name]
    for key in [k for k in sys.path_importer_cache if k.startswith(folder)]:
        del sys.path_importer_cache[key]
    importlib.invalidate_caches()
    if code != 0:
        return frozenset()
    return frozenset(n for n in seen.modules - before if n in sys.modules)


def main() -> None:
    LIBC.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    sock = socket.socket(fileno=int(sys.argv[3]))
    shim: dict[str, Any] = {"__name__": "ponybench_limit_exec"}  # not __main__: defines, runs nothing
    exec(sys.argv[4], shim)  # the cold path's exec shim, as the harness took it
    sock.send(json.dumps({"ready": True, "status": _status_fields()}).encode())
    keep = KEEP
    if CONFIG["wipe"]:  # a private /tmp, emptied after each scoring anyway
        keep = KEEP | warm_up(CONFIG["wipe"][0])
        gc.collect()
        gc.freeze()
    job = serve(sock, shim["apply"])
    run(job, keep)  # in a scoring child: it ends there


if __name__ == "__main__":
    main()
