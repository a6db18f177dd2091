"""Confinement with bubblewrap: what code running inside a cell can see and do.

Code runs inside a cell in two places: the agent's process tree (claude, a plugin's hooks, an
MCP server) and the scorer (the checks and the module they import). Both start from an empty
root and see only:

- the system (/usr and the /bin, /lib* links or folders), read-only;
- a minimal /etc: the files a process needs to resolve names, find libraries and trust TLS
  certificates, and a passwd and group with the sandbox's own user; no shadow, gshadow,
  sudoers, ssh keys, machine id, package-manager tokens or TLS private keys;
- what the caller names: read-only (the claude install, the python install, a plugin) and
  writable (the workspace and the cell's HOME; the scorer's scratch copy), each bound at the
  same path as outside, so paths in the stream and in messages mean the same on both sides;
- a private /tmp, /dev/shm and /dev, and their own /proc (a PID namespace of their own).

They hold no capability, even under a root harness: a new user namespace (where the kernel
allows one), every capability dropped from the effective, permitted, bounding and ambient sets,
no further user namespaces, and a seccomp filter (seccomp.py) against the calls that need no
capability to reach another process (ptrace, process_vm_*). A path to hide that lies inside a
bound folder (this package installed in site-packages, a project under /usr/local/src) gets an
empty tmpfs over it. Neither keeps the host's network: the scorer has none, and the agent has a
network namespace of its own whose only way out is the model gateway (`Passage`: the gateway's
unix socket bound in, and a bridge that listens on the namespace's loopback and relays to it),
so it reaches no other host service, no other session's server and no outside address.

`status()` proves all of this once per process by asking a confined process for its
capability sets (`CapEff` must be 0) before any cell runs; run.json and the session header
carry what it found.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.isolation import seccomp

__all__ = [
    "BWRAP_ENV",
    "CAP_FIELDS",
    "BRIDGE_PORT",
    "CA_VARS",
    "CLI_PACKAGE",
    "Confinement",
    "ETC_KEEP",
    "INSTALL_HINT",
    "METHOD",
    "Passage",
    "Prefix",
    "SYSTEM_DIRS",
    "SYSTEM_LINKS",
    "TMP_BYTES",
    "View",
    "agent_command",
    "agent_view",
    "bridge_python",
    "install_readable",
    "bwrap_argv",
    "bwrap_path",
    "claude_readable",
    "etc_argv",
    "exposure",
    "install_folder",
    "interpreter_folder",
    "prefix",
    "program_folder",
    "protected",
    "refusal",
    "status",
    "wrap",
]

# The bubblewrap binary to use. Set to a path that does not exist to run without confinement
# (how the tests play a machine without bubblewrap); the refusal of paid runs then applies.
BWRAP_ENV = "PONYBENCH_BWRAP"
METHOD = "bubblewrap"
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)"

SYSTEM_DIRS = ("/usr",)
# Top-level links on merged-/usr systems (/bin -> usr/bin), real folders on older ones.
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What a confined process gets of the host's /etc: name resolution, the dynamic linker's cache,
# time zones, TLS trust (certificates only: /etc/ssl/private holds keys) and the alternatives
# links that /usr/bin points through. passwd and group are written for the sandbox's own user.
ETC_KEEP = (
    "hosts",
    "host.conf",
    "nsswitch.conf",
    "gai.conf",
    "resolv.conf",
    "localtime",
    "timezone",
    "protocols",
    "services",
    "mime.types",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "alternatives",
    "ca-certificates.conf",
    "ssl/certs",
    "ssl/openssl.cnf",
    "pki/tls/certs",
    "pki/ca-trust/extracted",
    "crypto-policies/back-ends",
    "os-release",
    "debian_version",
    "locale.alias",
)
# Files the CLI may be pointed at by variables it keeps (proxy CA bundles), bound read-only.
CA_VARS = ("SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS")
TMP_BYTES = 1 << 30  # a private /tmp is memory: a process that fills it fails with ENOSPC
# Inside a confined agent's own network namespace: where the model gateway answers.
BRIDGE_PORT = 8421
_INSIDE = Path("/run/ponybench")


def bridge_python() -> str:
    """The python that runs the bridge inside a cell: the harness's base interpreter (a venv's
    own python is a link into it; the bridge needs the standard library alone)."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


@dataclass(frozen=True)
class Passage:
    """A confined session's one way out: the gateway's unix socket and the bridge (a copy of
    `_probe/netbridge.py` beside it, never the package's own file) run by a python whose install
    is bound read-only; inside, the gateway answers at http://127.0.0.1:BRIDGE_PORT."""

    socket: Path
    bridge: Path
    python: str

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{BRIDGE_PORT}"

    def binds(self) -> tuple[tuple[Path, Path], ...]:
        return ((self.socket, _INSIDE / "gateway.sock"), (self.bridge, _INSIDE / "netbridge.py"))

    def launcher(self) -> list[str]:
        inside = str(_INSIDE / "gateway.sock")
        return [self.python, "-I", "-S", str(_INSIDE / "netbridge.py"), inside, str(BRIDGE_PORT), "--"]

    def readable(self) -> list[Path]:
        return install_readable(self.python)


@dataclass(frozen=True)
class View:
    """What one confined process sees and may write, besides the system."""

    writable: tuple[Path, ...] = ()
    readable: tuple[Path, ...] = ()
    hide: tuple[Path, ...] = ()  # folders inside a bound folder that must look empty
    network: bool = False
    chdir: Path | None = None
    # (descriptor, path): a file whose content exists only inside the sandbox, on its tmpfs,
    # and goes with it; the descriptor is read by bwrap.
    data: tuple[tuple[int, Path], ...] = ()
    tmp_bytes: int = TMP_BYTES
    # (host path, path inside): single files bound read-only at another path (the gateway's
    # socket and the bridge), so the folder they lie in is never seen
    files: tuple[tuple[Path, Path], ...] = ()


@dataclass(frozen=True)
class Confinement:
    """Whether cells run confined on this machine, how, and why not when they do not."""

    available: bool
    method: str  # "bubblewrap" or "none"
    reason: str
    bwrap: str | None = None
    userns: bool = False  # a user namespace of its own
    seccomp: bool = False
    # The capability sets a confined process reported (hex, as /proc/self/status gives them).
    caps: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        if not self.available:
            return f"NOT confined: {self.reason}"
        parts = [
            "user namespace" if self.userns else "no user namespace",
            f"CapEff {self.caps.get('CapEff', '?')}",
            "seccomp" if self.seccomp else "no seccomp filter",
            "minimal /etc",
        ]
        return f"confined with {self.method} ({', '.join(parts)})"


def bwrap_path() -> str | None:
    configured = os.environ.get(BWRAP_ENV)
    if configured is not None:
        return configured if os.access(configured, os.X_OK) else None
    return shutil.which("bwrap")


# The npm packages of the CLI: the package itself and its per-platform binaries.
CLI_PACKAGE = "@anthropic-ai/claude-code"


def _package_name(manifest: Path) -> str | None:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) else None


def install_folder(claude: str, packages: tuple[str, ...] = (CLI_PACKAGE,)) -> Path | None:
    """The installation that the real path of the CLI lies in: the npm package of the CLI (the
    nearest package.json above it names one of packages, claude's by default, or one of their
    per-platform packages), or None. The nearest package.json that names anything else ends
    the search: a folder with a package.json is not an install (a wrapper script in a
    repository would bind the repository)."""
    real = Path(os.path.realpath(claude))
    for parent in real.parents:
        manifest = parent / "package.json"
        if manifest.is_file():
            name = _package_name(manifest) or ""
            ours = any(name == p or name.startswith(p + "-") for p in packages)
            return _package_root(parent, packages) if ours else None
        if parent.name == "node_modules" or parent == parent.parent:
            break
    return None


def _package_root(found: Path, packages: tuple[str, ...]) -> Path:
    """The CLI's own package around a per-platform one nested in it (Copilot's native binary
    lies in `@github/copilot/node_modules/@github/copilot-linux-x64`): the outer one."""
    for parent in found.parents:
        manifest = parent / "package.json"
        if parent.name == "node_modules":
            continue
        if manifest.is_file() and (_package_name(manifest) or "") in packages:
            return parent
        if not any(p.name == "node_modules" for p in parent.parents):
            break
    return found


def _is_script(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(2) == b"#!"
    except OSError:
        return False


_NAMED = re.compile(r"""(?<![\w.$])(/[^\s'"`;|&()<>$\\]+)""")


def _named_installs(script: str, packages: tuple[str, ...], program: str) -> list[Path]:
    """The CLI installs a wrapper script names by absolute path (`exec /opt/claude/bin/claude`)."""
    try:
        with open(script, encoding="utf-8", errors="replace") as fh:
            text = fh.read(1 << 16)
    except OSError:
        return []
    found: list[Path] = []
    for word in _NAMED.findall(text):
        real = os.path.realpath(word)
        if real == os.path.realpath(script) or not (os.path.isfile(real) and os.access(real, os.X_OK)):
            continue
        folder = install_folder(real, packages)
        if folder is not None:
            found.append(folder)
        elif os.path.basename(word).startswith(program) and not _is_script(real):
            found.append(Path(real))  # a native binary: its own file
    return found


def claude_readable(
    claude: str, path: str | None, packages: tuple[str, ...] = (CLI_PACKAGE,), program: str = "claude"
) -> list[Path]:
    """What of the host the agent's command needs to run (claude's by default; another CLI
    names its npm packages and program): its npm package (and a script install's interpreter);
    a native binary's own file; a wrapper script's own file, its interpreter and the real
    install it names or PATH gives. Never the folder a wrapper lies in."""
    real = os.path.realpath(shutil.which(claude, path=path) or claude)
    folder = install_folder(real, packages)
    interpreter = interpreter_folder(real, path)
    if folder is not None:
        return [folder, *([interpreter] if interpreter is not None else [])]
    if not _is_script(real):
        return [Path(real)]
    named = _named_installs(real, packages, program)
    out = [Path(real), *([interpreter] if interpreter is not None else []), *named]
    # A wrapper that runs the CLI by name: the install PATH gives (not the wrapper again).
    on_path = shutil.which(program, path=path)
    if on_path is not None and os.path.realpath(on_path) != real:
        inner = os.path.realpath(on_path)
        out += [install_folder(inner, packages) or Path(inner)]
        if (inner_interpreter := interpreter_folder(inner, path)) is not None:
            out.append(inner_interpreter)
    return list(dict.fromkeys(out))


def protected(out: Path | None = None) -> dict[str, Path]:
    """What no path readable in a cell may be or hold (`exposure`): the project (the cwd), HOME,
    every cell's scratch and, given, the out folder (every run dir)."""
    from pytest_ponybench.isolation.scratch import root

    named = {"the project": Path.cwd(), "HOME": Path(os.path.expanduser("~")), "the scratch root": root()}
    return named | ({"the out folder": out} if out is not None else {})


def exposure(readable: Iterable[Path], protected: Mapping[str, Path]) -> str | None:
    """Why a view must not be used: a readable path that is, or holds, one of protected (the
    project, HOME, the out folder, the scratch root; `/` always); None when none does."""
    named = {"the whole file system": Path("/"), **protected}
    for path in readable:
        real = Path(os.path.realpath(path))
        for what, where in named.items():
            target = Path(os.path.realpath(where))
            if _under(target, [real]):
                return (
                    f"{path} would be readable in every cell, and it is or holds {what} ({target}); "
                    "a cell may read only the claude install and copies of the arm's files"
                )
    return None


def interpreter_folder(claude: str, path: str | None) -> Path | None:
    """Where the interpreter of a script install lives (`#!/usr/bin/env node` with node under
    ~/.nvm, say), so it is visible inside too; None for a native binary."""
    try:
        with open(os.path.realpath(claude), "rb") as fh:
            first = fh.readline(256)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode(errors="replace").split()
    if not words:
        return None
    program = words[1] if os.path.basename(words[0]) == "env" and len(words) > 1 else words[0]
    found = shutil.which(program, path=path) if not os.path.isabs(program) else program
    return program_folder(found) if found is not None else None


def program_folder(found: str) -> Path:
    """The install folder of a program: .../node/v22/bin/node -> .../node/v22, which holds the
    runtime's own lib/ as well."""
    real = Path(os.path.realpath(found))
    return real.parent.parent if real.parent.name == "bin" else real.parent


def install_readable(program: str) -> list[Path]:
    """What a confined session must read to run a program: its install folder, unless the
    system's (bound anyway)."""
    folder = program_folder(program)
    return [] if str(folder).startswith(SYSTEM_DIRS) else [folder]


def _under(path: Path, roots: Iterable[Path]) -> bool:
    return any(path == r or r in path.parents for r in roots)


@functools.cache
def _identity_files() -> tuple[Path, Path]:
    """passwd and group naming the sandbox's user (this uid: a user namespace maps it to
    itself), written once per process into its private scratch."""
    from pytest_ponybench.isolation.scratch import session_dir

    folder = session_dir() / "etc"
    folder.mkdir(exist_ok=True)
    uid, gid = os.getuid(), os.getgid()
    users = ["root:x:0:0:root:/root:/bin/sh"]
    groups = ["root:x:0:"]
    if uid != 0:
        users.append(f"ponybench:x:{uid}:{gid}:ponybench:/tmp:/bin/sh")
        groups.append(f"ponybench:x:{gid}:")
    users.append("nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin")
    groups.append("nogroup:x:65534:")
    passwd, group = folder / "passwd", folder / "group"
    passwd.write_text("\n".join(users) + "\n", encoding="utf-8")
    group.write_text("\n".join(groups) + "\n", encoding="utf-8")
    for path in (folder, passwd, group):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return passwd, group


def etc_argv() -> list[str]:
    """The minimal /etc, as bwrap arguments."""
    passwd, group = _identity_files()
    argv = ["--dir", "/etc", "--ro-bind", str(passwd), "/etc/passwd", "--ro-bind", str(group), "/etc/group"]
    for name in ETC_KEEP:
        host = Path("/etc") / name
        if not os.path.lexists(host):
            continue
        # A link (resolv.conf into /run, os-release into /usr) is bound by what it points to.
        real = os.path.realpath(host)
        if os.path.exists(real):
            argv += ["--ro-bind", real, str(host)]
    return argv


def bwrap_argv(bwrap: str, view: View, *, userns: bool = True, seccomp_fd: int | None = None) -> list[str]:
    """The bwrap prefix that confines one process tree to view."""
    # --as-pid-1: the command is PID 1 of its namespace (everything it started dies with it)
    # and bwrap waits for it itself, so its CPU reaches the harness's wait4; behind bwrap's own
    # PID 1 it would be reaped by nobody the harness can ask.
    argv = [bwrap, "--die-with-parent", "--unshare-pid", "--as-pid-1", "--unshare-ipc", "--unshare-uts"]
    argv += ["--unshare-cgroup-try"]
    if userns:
        argv += ["--unshare-user", "--disable-userns"]
    argv += ["--cap-drop", "ALL"]
    if not view.network:
        argv += ["--unshare-net"]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    argv += ["--proc", "/proc", "--dev", "/dev", "--size", str(view.tmp_bytes), "--tmpfs", "/tmp"]
    bound: list[Path] = []
    for top in SYSTEM_DIRS:
        if os.path.isdir(top):
            argv += ["--ro-bind", top, top]
            bound.append(Path(os.path.realpath(top)))
    for top in SYSTEM_LINKS:
        if os.path.islink(top):
            argv += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            argv += ["--ro-bind", top, top]
            bound.append(Path(top))
    argv += etc_argv()
    readable = [Path(os.path.realpath(p)) for p in view.readable if os.path.exists(p)]
    for path in readable:
        if not _under(path, bound):
            argv += ["--ro-bind", str(path), str(path)]
    bound += readable
    for path in view.hide:
        # Strictly inside a bound folder (the system, a python install): an empty tmpfs over it.
        real = Path(os.path.realpath(path))
        inside = any(r in real.parents for r in bound)
        if real.is_dir() and inside and not any(_under(r, [real]) for r in readable):
            argv += ["--tmpfs", str(real)]
    # Last, so they win over a tmpfs laid over a folder that holds them.
    for path in view.writable:
        argv += ["--bind", str(path), str(path)]
    for fd, dest in view.data:
        argv += ["--perms", "0600", "--bind-data", str(fd), str(dest)]
    for source, target in view.files:
        argv += ["--ro-bind", str(source), str(target)]
    # The sandbox's own root (where /etc and the mount points were made) read-only too; the
    # writable binds, /tmp and /dev/shm are mounts of their own and stay writable.
    argv += ["--remount-ro", "/"]
    if view.chdir is not None:
        argv += ["--chdir", str(view.chdir)]
    return [*argv, "--"]


@dataclass
class Prefix:
    """A ready bwrap prefix and the descriptors the child process must be given for it."""

    argv: list[str]
    pass_fds: list[int]
    _close: list[int] = field(default_factory=list)

    def close(self) -> None:
        """The harness's copies of the descriptors, once the child holds its own."""
        for fd in self._close:
            try:
                os.close(fd)
            except OSError:
                pass
        self._close.clear()


def _seccomp_fd() -> int | None:
    """A descriptor holding the filter, rewound, for one bwrap to read."""
    program = seccomp.program()
    if program is None:
        return None
    read, write = os.pipe()
    os.write(write, program)  # a few hundred bytes: within a pipe's buffer
    os.close(write)
    return read


def prefix(view: View, data: Mapping[Path, bytes] | None = None) -> Prefix:
    """The bwrap prefix for view on this machine (status().available must hold), with the
    seccomp filter and, for data, files that exist only inside the sandbox."""
    state = status()
    if not state.available or state.bwrap is None:
        raise RuntimeError(f"cannot confine: {state.reason}")
    fds: list[int] = []
    given: list[tuple[int, Path]] = []
    for dest, content in (data or {}).items():
        fd = _content_fd(content)
        fds.append(fd)
        given.append((fd, dest))
    sc = _seccomp_fd() if state.seccomp else None
    if sc is not None:
        fds.append(sc)
    full = replace(view, data=tuple(given)) if given else view
    argv = bwrap_argv(state.bwrap, full, userns=state.userns, seccomp_fd=sc)
    return Prefix(argv, list(fds), list(fds))


def _content_fd(content: bytes) -> int:
    """A descriptor bwrap reads content from: an unlinked file, so nothing is left on disk."""
    with tempfile.TemporaryFile(prefix="ponybench-data-") as fh:
        fh.write(content)
        fh.flush()
        fd = os.dup(fh.fileno())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def agent_view(
    *,
    workspace: Path,
    home: Path,
    claude: str,
    hide: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
    readable: Sequence[Path] = (),
    protected: Mapping[str, Path] | None = None,
    passage: Passage | None = None,
    packages: tuple[str, ...] = (CLI_PACKAGE,),
    program: str = "claude",
) -> View:
    """What an agent's session sees: its workspace and HOME writable, the CLI's install
    (`claude_readable`, claude's by default), the copies of the arm's plugin and MCP folders and
    proxy CA files readable. A readable path that is or holds one of protected is refused (`exposure`). With
    a passage its network is its own namespace with the gateway's bridge in it; without one
    it keeps the host's (a caller that has no gateway)."""
    path = (env or {}).get("PATH")
    installed = claude_readable(claude, path, packages, program)
    extra = [*installed, *readable, *(passage.readable() if passage else [])]
    for var in CA_VARS:
        if (value := (env or {}).get(var)) and os.path.exists(value):
            extra.append(Path(os.path.realpath(value)))
    if (why := exposure(extra, protected or {})) is not None:
        raise PonybenchError(f"ponybench: {why}")
    return View(
        writable=(workspace, home),
        readable=tuple(extra),
        hide=tuple(hide),
        network=passage is None,
        chdir=workspace,
        files=passage.binds() if passage is not None else (),
    )


def wrap(
    cmd: Sequence[str],
    view: View,
    data: Mapping[Path, bytes] | None = None,
    launcher: Sequence[str] = (),
) -> tuple[list[str], Prefix]:
    """cmd confined to view (cmd[0] is the claude binary, resolved on PATH), started by
    launcher when given; the Prefix's descriptors go to the child (pass_fds) and are closed
    here once it started."""
    pre = prefix(view, data)
    claude = os.path.realpath(shutil.which(cmd[0]) or cmd[0])
    return [*pre.argv, *launcher, claude, *cmd[1:]], pre


def agent_command(
    cmd: Sequence[str],
    *,
    workspace: Path,
    home: Path,
    env: Mapping[str, str],
    hide: Sequence[Path] = (),
    readable: Sequence[Path] = (),
    protected: Mapping[str, Path] | None = None,
    passage: Passage | None = None,
    packages: tuple[str, ...] = (CLI_PACKAGE,),
    program: str = "claude",
) -> tuple[list[str], Prefix]:
    """An agent session's command confined (agent_view); with a passage, started by its bridge
    (no credential ever enters: the gateway holds it)."""
    view = agent_view(
        workspace=workspace,
        home=home,
        claude=cmd[0],
        hide=hide,
        env=env,
        readable=readable,
        protected=protected,
        passage=passage,
        packages=packages,
        program=program,
    )
    return wrap(cmd, view, None, passage.launcher() if passage is not None else ())


CAP_FIELDS = ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp")


def _ask(bwrap: str, userns: bool, use_seccomp: bool) -> tuple[dict[str, str] | None, str]:
    """Run a trivial confined process that reports its capability sets; (fields, error)."""
    with tempfile.TemporaryDirectory(prefix="ponybench-confine-probe-") as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        ws.mkdir()
        home.mkdir()
        view = View(writable=(ws, home), chdir=ws)
        sc = _seccomp_fd() if use_seccomp else None
        argv = [*bwrap_argv(bwrap, view, userns=userns, seccomp_fd=sc), "cat", "/proc/self/status"]
        try:
            done = subprocess.run(
                argv,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=20,
                pass_fds=[sc] if sc is not None else [],
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return None, f"{bwrap} could not run: {exc}"
        finally:
            if sc is not None:
                os.close(sc)
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return None, f"{bwrap} failed ({why})"
    fields = {}
    for line in done.stdout.splitlines():
        name, _, value = line.partition(":")
        if name in CAP_FIELDS:
            fields[name] = value.strip()
    return fields, ""


@functools.cache
def status() -> Confinement:
    """Probe once per process: a confined process with the flags every cell gets reports its
    capabilities. Confinement is available only when it holds none."""
    bwrap = bwrap_path()
    if bwrap is None:
        where = os.environ.get(BWRAP_ENV)
        missing = f"{BWRAP_ENV}={where} is not an executable" if where is not None else "no bwrap on PATH"
        return Confinement(False, "none", f"{missing}; {INSTALL_HINT}")
    use_seccomp = seccomp.program() is not None
    fields, why = _ask(bwrap, True, use_seccomp)
    userns = fields is not None
    if fields is None and os.geteuid() == 0:
        # No user namespaces here (a kernel or policy that refuses them): as root bwrap can
        # still drop every capability; the bounding set then stays, which NoNewPrivs makes moot.
        fields, why = _ask(bwrap, False, use_seccomp)
    if fields is None:
        return Confinement(False, "none", f"{why}; user namespaces may be disabled", bwrap)
    caps = {k: v for k, v in fields.items() if k.startswith("Cap")}
    held = [k for k in ("CapEff", "CapPrm", "CapAmb") if int(caps.get(k, "1"), 16) != 0]
    if held:
        return Confinement(
            False, "none", f"a confined process still holds capabilities ({', '.join(held)})", bwrap
        )
    return Confinement(
        True,
        METHOD,
        f"{bwrap}, no capability inside",
        bwrap,
        userns=userns,
        seccomp=fields.get("Seccomp", "0") != "0",
        caps=caps,
    )


def refusal(paid_models: Sequence[str], allow_unconfined: bool, flag: str) -> str | None:
    """The message that refuses a run spending money on an agent that cannot be confined."""
    state = status()
    if state.available or not paid_models or allow_unconfined:
        return None
    return (
        f"ponybench: the agent cannot be confined on this machine ({state.reason}), and the "
        f"models {', '.join(paid_models)} spend money. An unconfined agent can read and change "
        "the hidden checks, the records and the harness itself. Install bubblewrap, or pass "
        f"{flag} to run anyway."
    )
