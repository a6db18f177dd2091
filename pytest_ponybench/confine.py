"""Confine the claude process of a cell with bubblewrap.

Under bypassPermissions the CLI's file tools take any absolute path, so an unconfined agent can
find and rewrite the hidden checks, the run dir's records and the scorer (a Glob over / finds
them in seconds). Confined, the session starts from an empty root and sees only:

- the system (/usr, /etc and the /bin, /lib* links or folders), read-only;
- the claude install folder, resolved from the binary's real path, read-only, wherever it lives;
- its workspace and its own HOME, writable, bound at the same paths as outside (the cwd reaches
  the model and the stream carries absolute paths, so the audit compares them as they are);
- an empty /tmp, its own /proc and a minimal /dev.

The project, the task folders, the run dirs, other cells' folders, the user's HOME and the host's
/tmp are not there at all. A path to hide that lies inside a read-only system folder (a plugin
installed into site-packages, a project under /usr/local/src) gets an empty tmpfs over it. The
session has its own PID namespace and dies with the harness; the network namespace is shared,
because the model is an HTTP API (the offline server listens on 127.0.0.1).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

# The bubblewrap binary to use. Set to a path that does not exist to run without confinement
# (how the tests play a machine without bubblewrap); the refusal of paid runs then applies.
BWRAP_ENV = "PONYBENCH_BWRAP"
METHOD = "bubblewrap"
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)"

SYSTEM_DIRS = ("/usr", "/etc")
# Top-level links on merged-/usr systems (/bin -> usr/bin), real folders on older ones.
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# Files the CLI may be pointed at by variables it keeps (proxy CA bundles), bound read-only.
CA_VARS = ("SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS")


@dataclass(frozen=True)
class Confinement:
    """Whether cells run confined on this machine, and why not when they do not."""

    available: bool
    method: str  # "bubblewrap" or "none"
    reason: str
    bwrap: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        if self.available:
            return f"agent confined with {self.method} ({self.reason})"
        return f"agent NOT confined: {self.reason}"


def bwrap_path() -> str | None:
    configured = os.environ.get(BWRAP_ENV)
    if configured is not None:
        return configured if os.access(configured, os.X_OK) else None
    return shutil.which("bwrap")


def install_folder(claude: str) -> Path:
    """The folder that holds the claude installation: the npm package root (the nearest folder
    above the binary's real path with a package.json), else the binary's own folder."""
    real = Path(os.path.realpath(claude))
    for parent in real.parents:
        if (parent / "package.json").is_file():
            return parent
        if parent.name == "node_modules" or parent == parent.parent:
            break
    return real.parent


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
    if found is None:
        return None
    real = Path(os.path.realpath(found))
    # .../node/v22/bin/node -> .../node/v22, which holds the runtime's own lib/ as well.
    return real.parent.parent if real.parent.name == "bin" else real.parent


def _under(path: Path, roots: Iterable[Path]) -> bool:
    return any(path == r or r in path.parents for r in roots)


def bwrap_argv(
    bwrap: str,
    *,
    workspace: Path,
    home: Path,
    install: Path | None = None,
    hide: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
    readable: Sequence[Path] = (),
) -> list[str]:
    """The bwrap prefix that confines one session to workspace (cwd) and home; `readable` (the
    arm's plugin folder) is bound read-only, so the CLI can load the plugin and run its hooks."""
    # --as-pid-1: the session is PID 1 of its namespace (everything it started dies with it)
    # and bwrap waits for it itself, so its CPU reaches the harness's wait4; behind bwrap's own
    # PID 1 it would be reaped by nobody the harness can ask.
    argv = [bwrap, "--die-with-parent", "--unshare-pid", "--as-pid-1", "--unshare-ipc", "--unshare-uts"]
    argv += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
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
    extra = [install] if install is not None else []
    # /etc/resolv.conf is often a link into /run: DNS must keep working for a live model.
    extra.append(Path(os.path.realpath("/etc/resolv.conf")))
    for var in CA_VARS:
        if (value := (env or {}).get(var)) and os.path.exists(value):
            extra.append(Path(os.path.realpath(value)))
    for path in extra:
        if path.exists() and not _under(path, bound):
            argv += ["--ro-bind", str(path), str(path)]
    for path in hide:
        # Strictly inside a system folder, and not holding the claude install.
        real = Path(os.path.realpath(path))
        inside_system = any(r in real.parents for r in bound)
        if real.is_dir() and inside_system and not (install and _under(install, [real])):
            argv += ["--tmpfs", str(real)]
    for path in readable:
        if path.exists():
            argv += ["--ro-bind", str(path), str(path)]
    # Last, so they win over a tmpfs laid over a folder that holds them.
    for path in (workspace, home):
        argv += ["--bind", str(path), str(path)]
    argv += ["--chdir", str(workspace), "--"]
    return argv


def wrap(
    cmd: Sequence[str],
    *,
    workspace: Path,
    home: Path,
    hide: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
    readable: Sequence[Path] = (),
) -> list[str]:
    """cmd confined (cmd[0] is the claude binary); the caller checked status().available."""
    state = status()
    if not state.available or state.bwrap is None:
        raise RuntimeError(f"cannot confine: {state.reason}")
    # A bare name is looked up on PATH first; a link like ~/.local/bin/claude is not visible inside.
    claude = os.path.realpath(shutil.which(cmd[0], path=(env or {}).get("PATH")) or cmd[0])
    interpreter = interpreter_folder(cmd[0], (env or {}).get("PATH"))
    if interpreter is not None:
        readable = [*readable, interpreter]
    prefix = bwrap_argv(
        state.bwrap,
        workspace=workspace,
        home=home,
        install=install_folder(claude),
        hide=hide,
        env=env,
        readable=readable,
    )
    return [*prefix, claude, *cmd[1:]]


@functools.cache
def status() -> Confinement:
    """Probe once per process: a trivial confined run, with the same flags a cell gets."""
    bwrap = bwrap_path()
    if bwrap is None:
        where = os.environ.get(BWRAP_ENV)
        missing = f"{BWRAP_ENV}={where} is not an executable" if where is not None else "no bwrap on PATH"
        return Confinement(False, "none", f"{missing}; {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="ponybench-confine-probe-") as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        ws.mkdir()
        home.mkdir()
        argv = [*bwrap_argv(bwrap, workspace=ws, home=home), "true"]
        try:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return Confinement(False, "none", f"{bwrap} could not run: {exc}", bwrap)
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return Confinement(False, "none", f"{bwrap} failed ({why}); user namespaces may be disabled", bwrap)
    return Confinement(True, METHOD, bwrap, bwrap)


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
