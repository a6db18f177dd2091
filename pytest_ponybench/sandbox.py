"""Run untrusted code (what an agent wrote, and the checks that import it) in a subprocess.

The child gets resource limits, a scrubbed environment, its own process group and, where the
kernel allows it, its own network and PID namespaces (no network; every descendant dies with it).
Output goes to files, never pipes, so a child that prints without end cannot block the harness.
"""

from __future__ import annotations

import functools
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from . import warm

# Variables a child may inherit; everything else is dropped. An allowlist, because a denylist
# always misses the next credential name.
ENV_ALLOW = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "SYSTEMROOT")
SECRET_RE = re.compile(
    r"(_API_KEY|_TOKEN|_SECRET|PASSWORD)$|^(ANTHROPIC_|AWS_|CLAUDE|GITHUB_|GH_|OPENAI_|GOOGLE_)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Limits:
    cpu_s: int = 120
    memory_bytes: int = 2 << 30
    file_bytes: int = 64 << 20
    open_files: int = 256
    processes: int = 256  # RLIMIT_NPROC (not enforced for root) and the pids cgroup's cap

    def values(self) -> tuple[int, int, int, int, int]:
        """In the order the exec shim and the warm scorer take them."""
        return (self.cpu_s, self.memory_bytes, self.file_bytes, self.open_files, self.processes)


@dataclass(frozen=True)
class SandboxResult:
    returncode: int | None
    timed_out: bool
    wall_s: float
    stdout: Path
    stderr: Path
    isolated: tuple[str, ...]  # what was actually applied: "net", "pid" namespaces, "pids" cgroup
    channel: bytes = b""  # what the child wrote to its Channel, if it was given one
    channel_overflowed: bool = False
    cpu_s: float | None = None  # the child and all it waited for; None when it was not reaped
    warm: bool = False  # forked by the warm scorer rather than started cold

    @property
    def network_cut(self) -> bool:
        return "net" in self.isolated

    @property
    def signal_name(self) -> str | None:
        if self.returncode is None or self.returncode >= 0:
            return None
        try:
            return signal.Signals(-self.returncode).name
        except ValueError:
            return f"signal {-self.returncode}"


def scrub_env(
    extra: Mapping[str, str] | None = None, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment of an untrusted child: the allowlist, plus extra minus anything secret."""
    src = os.environ if base is None else base
    env = {k: src[k] for k in ENV_ALLOW if k in src}
    for key, value in (extra or {}).items():
        if not SECRET_RE.search(key):
            env[key] = value
    return env


def prefix_works(argv: Sequence[str]) -> bool:
    """Whether this machine runs `argv true`: probes a wrapper (unshare, setpriv) before use."""
    try:
        return (
            subprocess.run(
                [*argv, "true"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=10,
            ).returncode
            == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        return False


@functools.cache
def death_signal_prefix() -> tuple[str, ...]:
    """setpriv --pdeathsig KILL: the child dies with the process that started it, even when
    that process is SIGKILLed (an xdist worker torn down) and no `finally` can run."""
    setpriv = shutil.which("setpriv")
    argv = (setpriv, "--pdeathsig", "KILL") if setpriv else ()
    return argv if argv and prefix_works(argv) else ()


@functools.cache
def namespace_prefix(net: bool = True) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The unshare prefix this machine allows, probed once: (argv prefix, namespaces).

    With net, the child also loses the network (the scorer); without, it keeps it and only gets
    its own PID namespace, so every descendant dies with it (claude, which needs the API).
    """
    unshare = shutil.which("unshare")
    if unshare is None:
        return (), ()
    pid = ("--pid", "--fork", "--kill-child")
    user = ("--user", "--map-root-user")
    candidates: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
        ((unshare, "--net", *pid), ("net", "pid")),
        ((unshare, *user, "--net", *pid), ("net", "pid")),
        ((unshare, *pid), ("pid",)),
        ((unshare, *user, "--net"), ("net",)),
    ]
    if not net:
        candidates = [((unshare, *pid), ("pid",)), ((unshare, *user, *pid), ("pid",))]
    return next(((argv, spaces) for argv, spaces in candidates if prefix_works(argv)), ((), ()))


LIMIT_EXEC = Path(__file__).parent / "_probe" / "limit_exec.py"
PIDS_ROOT = Path("/sys/fs/cgroup/pids")
CHANNEL_CAP = 16 << 20  # bytes kept from a channel; a child that writes more loses the rest


@functools.cache
def take_shim() -> str:
    """The exec shim's source, read once per process: what runs the checks is the code the
    session started with, whatever happens to the package on disk later."""
    return LIMIT_EXEC.read_text(encoding="utf-8")


def limited_argv(argv: Sequence[str], limits: Limits, cgroup: Path | None = None) -> list[str]:
    """argv wrapped in the exec shim that applies limits to it and all it starts."""
    procs = str(cgroup / "cgroup.procs") if cgroup is not None else "-"
    return [sys.executable, "-I", "-S", "-c", take_shim(), *map(str, limits.values()), procs, "--", *argv]


def warm_scorer() -> warm.WarmScorer | None:
    """This process's warm scorer (see warm.py), given the same death signal, exec shim and
    namespaces as the cold path, and an environment that fixes the interpreter's start-up flags
    as the cold child's are (no bytecode, a HOME without a user site) with nothing secret."""
    env = scrub_env({"PYTHONDONTWRITEBYTECODE": "1", "HOME": "/dev/null/home"})
    return warm.scorer(death_signal_prefix(), env, namespace_prefix()[1], take_shim())


def _reap_stale_cgroups() -> None:
    """Empty cgroups left by a harness process that was killed before it could remove them."""
    for path in PIDS_ROOT.glob("ponybench-*"):
        try:
            owner = int(path.name.split("-")[1])
            os.kill(owner, 0)
        except ProcessLookupError:
            try:
                path.rmdir()
            except OSError:
                pass
        except (ValueError, IndexError, PermissionError):
            continue


@contextmanager
def pids_cgroup(max_pids: int) -> Iterator[Path | None]:
    """A pids cgroup capping the whole process tree (a fork bomb as root), where the machine
    lets us make one; None elsewhere."""
    if not os.access(PIDS_ROOT, os.W_OK):
        yield None
        return
    _reap_stale_cgroups()
    path = PIDS_ROOT / f"ponybench-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    try:
        path.mkdir()
        (path / "pids.max").write_text(str(max_pids))
    except OSError:
        yield None
        return
    try:
        yield path
    finally:
        for _ in range(100):  # the members die with the PID namespace, a moment later
            try:
                path.rmdir()
                break
            except OSError:
                time.sleep(0.05)


class Child(Protocol):
    """A started child as the harness waits for it: a subprocess, or a warm scorer's child."""

    pid: int
    returncode: int | None
    cpu_s: float | None

    def wait(self, timeout: float | None = None) -> int: ...


class Spawned:
    """A Popen that also reports the CPU its process and everything it waited for used.

    The status comes from wait4, polled as Popen.wait polls waitpid, so the figure is exact and
    ours alone: getrusage(RUSAGE_CHILDREN) would mix in whatever else this process waited for.
    """

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.pid = proc.pid
        self.returncode: int | None = None
        self.cpu_s: float | None = None

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = 0.0005
        while self.returncode is None:
            try:
                pid, status, usage = os.wait4(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere: the status is Popen's
                self.returncode = self.proc.wait()
                break
            if pid:
                self.returncode = self.proc.returncode = os.waitstatus_to_exitcode(status)
                self.cpu_s = usage.ru_utime + usage.ru_stime
                break
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(self.proc.args, timeout or 0.0)
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
        return self.returncode


def kill_group(proc: Child | subprocess.Popen[bytes], grace_s: float = 2.0) -> None:
    """End a child and its whole process group: TERM, a grace period, then KILL."""
    for sig, wait in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 10.0)):
        _signal_group(proc.pid, sig, unreaped=proc.returncode is None)
        try:
            proc.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    # Members of the group that outlived the leader (or were reparented) get the KILL too.
    _signal_group(proc.pid, signal.SIGKILL, unreaped=False)


def _signal_group(pid: int, sig: int, unreaped: bool) -> None:
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        if not unreaped:
            return  # the pid may belong to a stranger by now
        # No group yet: a child that has not reached setsid() is still its own process.
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
    except PermissionError:
        pass


class Channel:
    """A pipe the child inherits as one fd, drained into memory as it is written.

    Unlike a file, nothing the child does to its filesystem can rewrite or truncate what was
    already written: code running later in the child can only add to it.
    """

    def __init__(self, cap: int = CHANNEL_CAP) -> None:
        self._read, self.write_fd = os.pipe()
        os.set_blocking(self._read, False)
        self._cap = cap
        self._chunks: list[bytes] = []
        self._size = 0
        self.overflowed = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._drain, name="ponybench-channel", daemon=True)

    def start(self) -> None:
        """Once the child holds the write end: the parent's copy must go, or EOF never comes."""
        os.close(self.write_fd)
        self._thread.start()

    def _drain(self) -> None:
        while True:
            ready, _, _ = select.select([self._read], [], [], 0.05)
            if not ready:
                if self._stop.is_set():
                    return  # a descendant still holds the write end; what it had written is in
                continue
            try:
                chunk = os.read(self._read, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                return
            if self._size + len(chunk) > self._cap:
                self.overflowed = True
                continue
            self._chunks.append(chunk)
            self._size += len(chunk)

    def close(self) -> bytes:
        """Everything the child wrote (up to the cap); call after the child has ended."""
        if self._thread.ident is not None:
            self._stop.set()
            self._thread.join()
        else:
            os.close(self.write_fd)  # never started: the child could not be spawned
        os.close(self._read)
        return b"".join(self._chunks)


def run_sandboxed(
    argv: Sequence[str],
    *,
    cwd: Path,
    out_dir: Path,
    timeout_s: float,
    env: Mapping[str, str] | None = None,
    limits: Limits | None = None,
    isolate: bool = True,
    channel_env: str | None = None,
    feed: tuple[str, bytes] | None = None,
) -> SandboxResult:
    """Run argv under limits; stdout/stderr land in out_dir; never raises on child misbehaviour.

    With channel_env, the child gets a Channel's write end, its number in that variable, and
    the result carries what was written to it. With feed = (variable, data), the child gets a
    pipe holding data (at most PIPE_BUF bytes) to read once, its fd number in that variable:
    unlike the environment or argv, nothing in /proc shows it to code that runs later.
    """
    limits = limits or Limits()
    out_dir.mkdir(parents=True, exist_ok=True)
    prefix, spaces = namespace_prefix() if isolate else ((), ())
    stdout, stderr = out_dir / "stdout.txt", out_dir / "stderr.txt"
    child_env = dict(env) if env is not None else scrub_env()
    channel = Channel() if channel_env else None
    if channel is not None and channel_env:
        child_env[channel_env] = str(channel.write_fd)
    pass_fds = [channel.write_fd] if channel is not None else []
    fed = -1
    if feed is not None:
        fed, fill = os.pipe()
        os.write(fill, feed[1][: select.PIPE_BUF])
        os.close(fill)
        child_env[feed[0]] = str(fed)
        pass_fds.append(fed)
    started = time.monotonic()
    timed_out = False
    proc: Child | None = None
    try:
        with (
            pids_cgroup(limits.processes) if isolate else nullcontext() as cgroup,
            open(stdout, "wb") as so,
            open(stderr, "wb") as se,
        ):
            if cgroup is not None:
                spaces = (*spaces, "pids")
            named = {k: int(child_env[k]) for k in (channel_env, feed and feed[0]) if k}
            zygote = warm_scorer() if isolate else None
            if zygote is not None and zygote.accepts(argv):
                proc = zygote.spawn(
                    argv,
                    cwd=cwd,
                    env=child_env,
                    limits=limits.values(),
                    cgroup=cgroup,
                    stdout=so.fileno(),
                    stderr=se.fileno(),
                    named_fds=named,
                )
            if proc is None:
                proc = Spawned(
                    subprocess.Popen(
                        [*death_signal_prefix(), *prefix, *limited_argv(argv, limits, cgroup)],
                        cwd=cwd,
                        env=child_env,
                        stdin=subprocess.DEVNULL,
                        stdout=so,
                        stderr=se,
                        start_new_session=True,
                        pass_fds=pass_fds,
                    )
                )
            if channel is not None:
                channel.start()
            try:
                proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:  # also on Ctrl-C: no scorer process may outlive the harness
                # Also on success: a daemon the child left behind in its group must not survive it.
                kill_group(proc, grace_s=0.5 if timed_out else 0.0)
    finally:
        if fed >= 0:
            os.close(fed)
        written = channel.close() if channel is not None else b""
    assert proc is not None  # set, or the exception that prevented it is on its way out
    return SandboxResult(
        returncode=proc.returncode,
        cpu_s=proc.cpu_s,
        warm=isinstance(proc, warm.WarmChild),
        timed_out=timed_out,
        wall_s=time.monotonic() - started,
        stdout=stdout,
        stderr=stderr,
        isolated=spaces,
        channel=written,
        channel_overflowed=channel is not None and channel.overflowed,
    )
