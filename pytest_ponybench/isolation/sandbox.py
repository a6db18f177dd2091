"""Run untrusted code (what an agent wrote, and the checks that import it) in a subprocess.

The child gets resource limits, a scrubbed environment and its own process group, and is
confined as the agent is (confine.py): where bubblewrap works, its own view of the filesystem
(the system, a minimal /etc and the python install read-only, its scratch copy as the only
writable place, its checks and probe read-only, a private /tmp, /dev/shm and /proc, nothing of
the user's HOME, the project, other tasks or run dirs), no network, no capability, a seccomp
filter and its own PID namespace; elsewhere, its own network and PID namespaces where the kernel
allows. A pytest run starts isolated (`python -I -S -B`, with the module path given
explicitly): no .pth file, sitecustomize or user site runs in it. Output goes to files, never
pipes, so a child that prints without end cannot block the harness.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
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
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pytest_ponybench._util.paths import PACKAGE_ROOT, PROBES
from pytest_ponybench.isolation import confine, warm

__all__ = [
    "CHANNEL_CAP",
    "Channel",
    "Child",
    "ENV_ALLOW",
    "Jail",
    "LIMIT_EXEC",
    "Limits",
    "PIDS_ROOT",
    "SCORER_MODULES",
    "SECRET_RE",
    "SandboxResult",
    "Spawned",
    "death_signal_prefix",
    "describe",
    "jail",
    "kill_group",
    "limited_argv",
    "namespace_prefix",
    "pids_cgroup",
    "prefix_works",
    "private_tmp",
    "pytest_job",
    "python_install",
    "run_sandboxed",
    "scorer_roots",
    "scrub_env",
    "take_shim",
    "warm_scorer",
]

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


LIMIT_EXEC = PROBES / "limit_exec.py"
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


@dataclass(frozen=True)
class Jail:
    """How this machine confines a scoring, probed once per process: "bwrap" (confine.py),
    "unshare" (network and PID namespaces only) or "none"; `isolated` is what the record says."""

    kind: str
    isolated: tuple[str, ...]
    unshare: tuple[str, ...] = ()


def jail() -> Jail:
    state = confine.status()  # probed once per process, as namespace_prefix is
    if state.available:
        confined = ["fs", "net", "pid", "nocaps"]
        confined += ["user"] if state.userns else []
        confined += ["seccomp"] if state.seccomp else []
        return Jail("bwrap", tuple(confined))
    argv, spaces = namespace_prefix()
    return Jail("unshare", spaces, argv) if argv else Jail("none", ())


def private_tmp() -> Path | None:
    """The confined child's own /tmp where it has one (bubblewrap): a tmpfs of its sandbox,
    bounded by the view's size and emptied after each scoring, where a check's temporary files
    cost no disk inode, journal or fsync (sqlite's commits, pytest's tmp_path). Else None: a
    child that shares the host's /tmp keeps its temporary files in its own folder."""
    return Path("/tmp") if jail().kind == "bwrap" else None


def describe() -> dict[str, Any]:
    """How a scoring is confined here, for run.json."""
    j = jail()
    return {"method": j.kind, "isolation": list(j.isolated), "python": "-I -S -B"}


# Where a module of the scorer's may come from besides site-packages (an install that puts
# them elsewhere): what the checks' process imports before any check.
SCORER_MODULES = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging")


@functools.cache
def python_install() -> tuple[tuple[str, ...], tuple[Path, ...]]:
    """(the module path a scorer appends to the standard library's, the folders a confined
    python must be able to read). The path is this interpreter's site-packages folders as `site`
    set them up, without what .pth files added, plus the folder of any module the scorer imports
    that lies elsewhere."""
    site_dirs = [p for p in sys.path if os.path.basename(p.rstrip("/")) in ("site-packages", "dist-packages")]
    for name in SCORER_MODULES:
        spec = importlib.util.find_spec(name)
        origin = getattr(spec, "origin", None) if spec is not None else None
        if origin is None:
            continue
        top = (
            os.path.dirname(os.path.dirname(origin))
            if origin.endswith("__init__.py")
            else os.path.dirname(origin)
        )
        if not any(top == d or top.startswith(d.rstrip("/") + "/") for d in site_dirs):
            site_dirs.append(top)
    readable = {Path(os.path.realpath(p)) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, *site_dirs)}
    readable.add(Path(os.path.realpath(sys.executable)).parent)
    return tuple(dict.fromkeys(site_dirs)), tuple(sorted(readable))


def _scorer_view(writable: Sequence[Path], readable: Sequence[Path], chdir: Path | None) -> confine.View:
    """What a confined scoring sees: its folders, the python install, node where it lives
    outside the system (a task's checks may drive it); this package is hidden where it lies
    inside a bound folder (installed into site-packages with the shipped suite's checks)."""
    extra: list[Path] = []
    node = shutil.which("node")
    if node is not None:
        extra.append(confine.program_folder(node))
    return confine.View(
        writable=tuple(writable),
        readable=(*python_install()[1], *extra, *readable),
        hide=(PACKAGE_ROOT, Path.cwd()),
        network=False,
        chdir=chdir,
        tmp_bytes=256 << 20,
    )


def scorer_roots() -> tuple[Path, Path]:
    """This process's folders for warm scorings: their copies (writable inside) and their checks
    and probe (read-only inside), in its private scratch."""
    from pytest_ponybench.isolation.scratch import session_dir

    base = session_dir() / "score"
    roots = (base / "jobs", base / "checks")
    for root in roots:
        root.mkdir(parents=True, exist_ok=True)
    return roots


def _zygote_command(j: Jail, cgroup: Path | None) -> tuple[list[str], list[int], ExitStack]:
    """The zygote's command up to and including `python -I -S -B -c`, the descriptors it must
    inherit, and what to close once it started."""
    stack = ExitStack()
    shim = [sys.executable, "-I", "-S", "-c", take_shim(), *(["-1"] * 5)]
    shim += [str(cgroup / "cgroup.procs") if cgroup is not None else "-", "--"]
    python = [sys.executable, "-I", "-S", "-B", "-c"]
    if j.kind == "bwrap":
        jobs, checks = scorer_roots()
        pre = confine.prefix(_scorer_view((jobs,), (checks,), Path("/")))
        stack.callback(pre.close)
        return [*death_signal_prefix(), *shim, *pre.argv, *python], pre.pass_fds, stack
    return [*death_signal_prefix(), *shim, *j.unshare, *python], [], stack


def warm_scorer() -> warm.WarmScorer | None:
    """This process's warm scorer (see warm.py): the death signal and exec shim of the cold
    path, the same confinement, its own pids cgroup for its lifetime, and an environment with
    nothing secret."""

    def start() -> warm.WarmScorer | None:
        j = jail()
        if j.kind == "none":
            return None  # without a PID namespace of its own it could not end a scoring's strays
        stack = ExitStack()
        cgroup = stack.enter_context(pids_cgroup(Limits().processes + 8))
        argv, fds, closing = _zygote_command(j, cgroup)
        private = j.kind == "bwrap"
        roots = scorer_roots() if private else (Path("/nonexistent"), Path("/nonexistent"))
        config = {
            "path": list(python_install()[0]),
            "wipe": ["/tmp", "/dev/shm"] if private else [],
            "keep": [str(r) for r in roots] if private else [],
        }
        try:
            started = warm.WarmScorer.start(
                argv, scrub_env({"HOME": "/tmp"}), fds, roots, stack.close, json.dumps(config), take_shim()
            )
        finally:
            closing.close()
        if started is not None:
            started.in_cgroup = cgroup is not None
        return started

    found = warm.scorer(start)
    if found is not None and jail().kind == "bwrap" and found.roots != scorer_roots():
        # This process's scratch moved (scratch.forget_session, after TMPDIR changed): a zygote
        # that sees only the old folders would send every later scoring down the cold path.
        warm.shutdown()
        found = warm.scorer(start)
    return found


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

    returncode: int | None
    cpu_s: float | None

    def wait(self, timeout: float | None = None) -> int: ...

    def signal_tree(self, sig: int) -> None:
        """Send sig to the child's process group."""


class Spawned:
    """A Popen that also reports the CPU its process and everything it waited for used.

    The status comes from wait4, so the figure is exact and ours alone: getrusage(RUSAGE_CHILDREN)
    would mix in whatever else this process waited for. It waits on a pidfd, which becomes
    readable when the process ends: no wake-up before that (polling waitpid as Popen.wait does
    woke the harness up to 250 times a second while a session started, and noticed its end up
    to 50 ms late). Where pidfds are missing it polls as Popen.wait does.
    """

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.pid = proc.pid
        self.returncode: int | None = None
        self.cpu_s: float | None = None
        self._ended: select.poll | None = None
        try:
            fd = os.pidfd_open(self.pid)
        except (AttributeError, OSError):  # an older kernel or python; or reaped already
            return
        self._pidfd = fd
        self._ended = select.poll()
        self._ended.register(fd, select.POLLIN)

    def _reaped(self) -> bool:
        try:
            pid, status, usage = os.wait4(self.pid, os.WNOHANG)
        except ChildProcessError:  # reaped elsewhere: the status is Popen's
            self.returncode = self.proc.wait()
        else:
            if not pid:
                return False
            self.returncode = self.proc.returncode = os.waitstatus_to_exitcode(status)
            self.cpu_s = usage.ru_utime + usage.ru_stime
        if self._ended is not None:
            self._ended = None
            os.close(self._pidfd)
        return True

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = 0.0005
        while self.returncode is None and not self._reaped():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise subprocess.TimeoutExpired(self.proc.args, timeout or 0.0)
            if self._ended is not None:
                self._ended.poll(None if left is None else max(1, math.ceil(left * 1000)))
            else:
                time.sleep(delay if left is None else min(delay, left))
                delay = min(delay * 2, 0.05)
        assert self.returncode is not None
        return self.returncode

    def __del__(self) -> None:
        if self._ended is not None:  # never waited for to its end
            os.close(self._pidfd)

    def signal_tree(self, sig: int) -> None:
        _signal_group(self.pid, sig, unreaped=self.returncode is None)


def kill_group(proc: Child | subprocess.Popen[bytes], grace_s: float = 2.0) -> None:
    """End a child and its whole process group: TERM, a grace period, then KILL."""
    send: Callable[[int, bool], None]
    if isinstance(proc, subprocess.Popen):
        pid = proc.pid

        def send(sig: int, unreaped: bool) -> None:
            _signal_group(pid, sig, unreaped)
    else:
        child = proc

        def send(sig: int, unreaped: bool) -> None:
            child.signal_tree(sig)

    for sig, wait in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 10.0)):
        send(sig, proc.returncode is None)
        try:
            proc.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    # Members of the group that outlived the leader (or were reparented) get the KILL too.
    send(signal.SIGKILL, False)


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


def pytest_job(argv: Sequence[str], cwd: Path, env: Mapping[str, str]) -> dict[str, Any] | None:
    """The job of a `python [-P] -m pytest ARGS` argv (run isolated: PYTHONPATH becomes the
    front of the module path, PYTHONDONTWRITEBYTECODE the -B flag it always gets, and no
    plugin of this environment is loaded), or None."""
    if len(argv) < 3 or argv[0] != sys.executable:
        return None
    rest = [a for a in argv[1:3] if a != "-P"]
    at = 1 + (1 if argv[1] == "-P" else 0)
    if rest[:1] != ["-m"] or argv[at : at + 2] != ["-m", "pytest"]:
        return None
    front = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    clean = {k: v for k, v in env.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    # The harness's own plugins (entry points of this environment) never load into the checks.
    clean.setdefault("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return {"args": list(argv[at + 2 :]), "cwd": str(cwd), "env": clean, "path0": front}


def _cold_argv(argv: Sequence[str], job: dict[str, Any] | None) -> list[str]:
    """What a cold child runs: a pytest job through the scorer's python, isolated; else argv."""
    if job is None:
        return list(argv)
    config = json.dumps({"path": list(python_install()[0]), "wipe": [], "keep": []})
    return [sys.executable, "-I", "-S", "-B", "-c", warm.take_source(), "once", config, json.dumps(job)]


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
    writable: Sequence[Path] | None = None,
    readable: Sequence[Path] = (),
    warm_ok: bool = True,
) -> SandboxResult:
    """Run argv under limits; stdout/stderr land in out_dir; never raises on child misbehaviour.

    Isolated, the child sees the folders in writable (default: cwd) and readable besides the
    system and the python install, where this machine confines (jail()); a pytest run goes to
    the warm scorer when its folders lie where the warm scorer sees them.

    With channel_env, the child gets a Channel's write end, its number in that variable, and
    the result carries what was written to it. With feed = (variable, data), the child gets a
    pipe holding data (at most PIPE_BUF bytes) to read once, its fd number in that variable:
    unlike the environment or argv, nothing in /proc shows it to code that runs later.
    """
    limits = limits or Limits()
    out_dir.mkdir(parents=True, exist_ok=True)
    j = jail() if isolate else Jail("none", ())
    spaces = j.isolated
    writable = [cwd] if writable is None else list(writable)
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
    job = pytest_job(argv, cwd, child_env)
    started = time.monotonic()
    timed_out = False
    proc: Child | None = None
    try:
        with ExitStack() as stack:
            so = stack.enter_context(open(stdout, "wb"))
            se = stack.enter_context(open(stderr, "wb"))
            named = {k: int(child_env[k]) for k in (channel_env, feed and feed[0]) if k}
            zygote = warm_scorer() if isolate and job is not None and warm_ok else None
            if zygote is not None and zygote.accepts(writable, readable):
                proc = zygote.spawn(
                    job or {}, limits=limits.values(), stdout=so.fileno(), stderr=se.fileno(), named_fds=named
                )
                if proc is not None and zygote.in_cgroup:
                    spaces = (*spaces, "pids")  # the zygote's cgroup, for its whole life
            if proc is None:
                cgroup = stack.enter_context(pids_cgroup(limits.processes)) if isolate else None
                if cgroup is not None:
                    spaces = (*spaces, "pids")
                wrapper: list[str] = list(j.unshare)
                if j.kind == "bwrap":
                    pre = confine.prefix(_scorer_view(writable, readable, cwd))
                    stack.callback(pre.close)
                    wrapper, pass_fds = pre.argv, [*pass_fds, *pre.pass_fds]
                proc = Spawned(
                    subprocess.Popen(
                        [
                            *death_signal_prefix(),
                            *limited_argv([*wrapper, *_cold_argv(argv, job)], limits, cgroup),
                        ],
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
    if isinstance(proc, warm.WarmChild) and proc.lost and not timed_out:
        # The zygote died under this scoring (killed, out of memory): what the checks did is
        # unknown, and the code under test must not be blamed for it. Score again, cold.
        return run_sandboxed(
            argv,
            cwd=cwd,
            out_dir=out_dir,
            timeout_s=timeout_s,
            env=env,
            limits=limits,
            isolate=isolate,
            channel_env=channel_env,
            feed=feed,
            writable=writable,
            readable=readable,
            warm_ok=False,
        )
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
