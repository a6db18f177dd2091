"""Cell workspaces: lay a task's seed or fixture (and optionally a reference), snapshot with git,
and take stock of what the agent left before the harness copies, diffs, counts or scores it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pytest_ponybench._util import gitcmd
from pytest_ponybench._util.textfiles import printable
from pytest_ponybench.core.tasks import Task

__all__ = [
    "Caps",
    "DEFAULT_CAPS",
    "FIXTURE_IGNORE",
    "OVER_CAP",
    "Stock",
    "WorkspaceRefused",
    "escaping_links",
    "git_plants",
    "inside_git_repo",
    "lay",
    "leaves",
    "snapshot",
    "take_stock",
]

# Copying a real repository must not drag in dependencies, history, build output, media or
# credentials: they cost time, leak the fixture's history, or put secrets in front of the agent.
FIXTURE_IGNORE = (
    ".git",
    "node_modules",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".venv",
    "venv",
    ".tox",
    "build",
    "dist",
    "*.egg-info",
    ".next",
    ".vite",
    "coverage",
    "*.log",
    "*.pyc",
    "*.mp4",
    "*.mp3",
    "*.wav",
    "*.mov",
    "*.zip",
    "*.tar.gz",
    ".env",
    ".env.*",
    "*.pem",
    "*.key",
    "*service-account*.json",
    "id_rsa*",
)


def leaves(link: Path, root: Path) -> bool:
    """Whether the symlink link resolves to a place outside root (root itself counts as inside)."""
    real_root = root.resolve()
    target = (link.parent / os.readlink(link)).resolve()
    return target != real_root and real_root not in target.parents


def escaping_links(workspace: Path) -> list[str]:
    """Symlinks in the workspace (.git aside) whose target lies outside it, as 'link -> target'."""
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(workspace, followlinks=False):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in (*dirnames, *filenames):
            p = Path(dirpath) / name
            if p.is_symlink() and leaves(p, workspace):
                found.append(f"{p.relative_to(workspace).as_posix()} -> {os.readlink(p)}")
    return sorted(found)


def _write(dest: Path, files: Mapping[str, bytes]) -> None:
    for name, data in files.items():
        path = dest / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink():
            path.unlink()
        path.write_bytes(data)


def lay(task: Task, dest: Path, reference: str | None = None) -> dict[str, str]:
    """Fill dest with the fixture copy and seed files; return {relpath: sha256} of what was seeded.

    With reference = "good" or "bad" the reference is laid over the seed, as an agent would have
    written it (used by the selftest).
    """
    dest.mkdir(parents=True, exist_ok=True)
    if task.fixture_path is not None:
        shutil.copytree(
            task.fixture_path,
            dest,
            dirs_exist_ok=True,
            symlinks=True,
            ignore=shutil.ignore_patterns(*FIXTURE_IGNORE),
        )
    _write(dest, task.seed)
    seeded = {
        p.relative_to(dest).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(dest.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }
    if reference is not None:
        _write(dest, task.reference(reference))
    return seeded


def snapshot(workspace: Path, keep: Path | None = None) -> str:
    """git init + commit the seeded state; return the base commit every diff is taken against.

    With keep, the repository is also copied there: the harness's own copy, outside the
    workspace, which is what every later diff reads. The agent may rewrite the workspace's
    `.git` (config, hooks, links out of `objects/`) as it likes; the harness never runs git on it.

    `git init` is run once per process (in a private folder, then kept in memory): each cell
    gets those files written, the same files git would write, and two git processes instead of
    four (add, commit; the new branch's ref is read from its file). git's identity and dates are
    fixed (gitcmd), so the same seeded content always gives the same repository: what git wrote
    for a small content is kept in memory too (`_Repos`), and a later cell seeded alike gets
    those files and no git process at all. Only the stat data in its index are the first cell's, which
    git refreshes the first time it looks.
    """
    git = workspace / ".git"
    fresh = not os.path.lexists(git)
    key = _content_key(workspace) if fresh else None
    kept = _REPOS.get(key)
    if kept is not None:
        _write_tree(git, kept)
    else:
        _commit(workspace, git, fresh)
        if key is not None:
            _REPOS.put(key, git)
    base = _branch_head(git) if fresh else None
    if base is None:
        base = gitcmd.check(workspace, "rev-parse", "HEAD", repo=workspace).decode().strip()
    if keep is not None:
        # Every git command on the copy is pinned to it and runs no hook (gitcmd), so the
        # sample hooks and the description are not copied.
        shutil.copytree(git, keep, symlinks=True, ignore=_not_kept)
    return base


def _commit(workspace: Path, git: Path, fresh: bool) -> None:
    if fresh:
        _lay_init(git)
    # init unpinned (a pinned work tree would be written into the new repository's config),
    # the rest pinned to the workspace's own .git.
    steps: list[tuple[Path | None, tuple[str, ...]]] = [] if fresh else [(None, _INIT)]
    steps += [
        (workspace, ("add", "-A")),
        (workspace, ("commit", "-q", "--allow-empty", "--no-verify", "-m", "ponybench: seeded base")),
    ]
    for repo, args in steps:
        done = gitcmd.run(workspace, *args, repo=repo)
        if done.returncode != 0:
            err = done.stderr.decode("utf-8", "replace").strip()
            raise RuntimeError(f"git {' '.join(args)} failed in {workspace}: {err}")


def _not_kept(folder: str, names: list[str]) -> set[str]:
    return {"hooks", "description"} & set(names) if os.path.basename(folder) == ".git" else set()


_INIT = ("init", "-q", "-b", "main")
# A folder's files: (relative path, mode, bytes or None for a folder), in the order to write them.
_Tree = list[tuple[str, int, bytes | None]]
# What `git init` wrote in this process's private folder.
_init_files: _Tree = []


def _read_tree(root: Path) -> _Tree:
    """Every folder and file below root (a repository git wrote: nothing else is in it)."""
    found: _Tree = []
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = os.path.join(folder, name)
            st = os.lstat(path)
            rel = os.path.relpath(path, root)
            if stat.S_ISDIR(st.st_mode):
                found.append((rel, stat.S_IMODE(st.st_mode), None))
            elif stat.S_ISREG(st.st_mode):
                found.append((rel, stat.S_IMODE(st.st_mode), Path(path).read_bytes()))
            else:
                raise gitcmd.GitError(f"git wrote {rel}, neither a file nor a folder")
    return sorted(found, key=lambda f: f[0].split(os.sep))


def _write_tree(root: Path, files: _Tree) -> None:
    root.mkdir()
    for rel, mode, data in files:
        dest = root / rel
        if data is None:
            dest.mkdir()
        else:
            dest.write_bytes(data)
        os.chmod(dest, mode)


def _lay_init(git: Path) -> None:
    """Write what `git init -b main` writes into git (absent): run git once per process."""
    if not _init_files:
        # Beside the workspace: git probes the file system it writes on (core.filemode, ...).
        made = Path(tempfile.mkdtemp(prefix="git-init-", dir=git.parent.parent))
        try:
            gitcmd.check(made, *_INIT)
            _init_files[:] = _read_tree(made / ".git")
        finally:
            shutil.rmtree(made, ignore_errors=True)
    _write_tree(git, _init_files)


# Beyond this many paths (a fixture repository) git itself is faster than reading every file
# for the key and writing its repository back from Python: such a workspace is not kept.
_KEY_PATHS = 64


def _content_key(workspace: Path) -> str | None:
    """A digest of everything below workspace that `git add -A` reads: each path with its type
    and mode, and a file's content or a link's target; None when something else is there, or
    more than _KEY_PATHS paths."""
    digest = hashlib.sha256()
    seen = 0
    for folder, dirs, files in os.walk(workspace):
        dirs.sort()
        seen += len(dirs) + len(files)
        if seen > _KEY_PATHS:
            return None
        for name in sorted([*dirs, *files]):
            path = os.path.join(folder, name)
            st = os.lstat(path)
            if stat.S_ISREG(st.st_mode):
                with open(path, "rb") as fh:
                    body = hashlib.sha256(fh.read()).digest()
            elif stat.S_ISLNK(st.st_mode):
                body = os.fsencode(os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                body = b""
            else:
                return None
            rel = os.fsencode(os.path.relpath(path, workspace))
            for part in (rel, st.st_mode.to_bytes(4, "big"), body):
                digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


class _Repos:
    """The repositories git wrote for seeded contents in this process, by content, up to a budget
    of bytes (a fixture repository's objects can be large: beyond it git runs again)."""

    BUDGET = 64 << 20

    def __init__(self) -> None:
        self._kept: dict[str, _Tree] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: str | None) -> _Tree | None:
        return None if key is None else self._kept.get(key)

    def put(self, key: str, git: Path) -> None:
        try:
            files = _read_tree(git)
        except (OSError, gitcmd.GitError):  # not kept: the next cell runs git again
            return
        size = sum(len(data or b"") for _, _, data in files)
        with self._lock:
            if key not in self._kept and self._bytes + size <= self.BUDGET:
                self._kept[key] = files
                self._bytes += size


_REPOS = _Repos()


def _branch_head(git: Path) -> str | None:
    """The commit the new repository's branch points at, from its ref file; None if HEAD is not
    the plain symbolic ref a fresh repository has (git is asked then)."""
    try:
        head = (git / "HEAD").read_text()
        if not head.startswith("ref: refs/heads/") or "\n" in head.rstrip("\n"):
            return None
        sha = (git / head[5:].strip()).read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None
    return sha if len(sha) in (40, 64) and all(c in "0123456789abcdef" for c in sha) else None


def inside_git_repo(path: Path) -> bool:
    """Whether path lies in a git work tree (the agent would see that repository's history).

    git only finds a repository where a folder on the way up holds `.git` or is one itself
    (it has a HEAD); where no such entry exists, git is not asked."""
    places = {Path(os.path.realpath(path)), path.absolute()}
    if not any(
        os.path.lexists(d / ".git") or os.path.lexists(d / "HEAD") for p in places for d in (p, *p.parents)
    ):
        return False
    probe = gitcmd.run(path, "rev-parse", "--is-inside-work-tree")
    return probe.returncode == 0 and probe.stdout.strip() == b"true"


class WorkspaceRefused(Exception):
    """The agent left something the harness will not copy, diff, count or score (over the caps,
    a special file, an unreadable entry). The cell is then valid and failed, with this reason:
    nothing in a workspace may make its own cell disappear from the figures."""


@dataclass(frozen=True)
class Caps:
    """What one workspace may hold: apparent bytes (a sparse file counts at its full size, so
    it is never expanded into a copy), entries (files, folders, links), how deep folders nest
    (the copies and walks after take_stock recurse once or twice a level, and Python stops at a
    thousand frames) and how long a path in it is, in bytes (the harness opens entries by their
    full path, which the kernel refuses past 4,096 bytes: the workspace is moved and copied
    under other folders, so a quarter of that). No project comes near either."""

    max_bytes: int = 64 << 20
    max_files: int = 20_000
    max_depth: int = 128
    max_path: int = 1024


DEFAULT_CAPS = Caps()


@dataclass(frozen=True)
class Stock:
    files: int
    bytes: int


_SETID = stat.S_ISUID | stat.S_ISGID
OVER_CAP = "over the cap: "  # how a refusal for size starts: such a workspace is not kept


def take_stock(workspace: Path, caps: Caps) -> Stock:
    """Walk the workspace without following links and refuse it when it is over a cap or holds
    a FIFO, socket or device (a FIFO blocks whoever opens it) or an entry the harness cannot
    read. Set-user-ID and set-group-ID bits are cleared on the way: the kept workspace must not
    carry a set-user-ID file made as the harness's user. Stops at the first cap exceeded."""
    files = size = 0
    checking_access = os.geteuid() != 0  # root reads everything; others can be locked out
    prefix = len(os.fsencode(workspace)) + 1
    stack = [(workspace, 0)]
    while stack:
        folder, depth = stack.pop()
        if depth > caps.max_depth:
            raise WorkspaceRefused(f"{OVER_CAP}folders nested more than {caps.max_depth} deep")
        try:
            entries = list(os.scandir(folder))
        except OSError as exc:
            why = f"{_rel(folder, workspace)} ({exc.strerror})"
            raise WorkspaceRefused(f"the workspace holds a folder the harness cannot read: {why}") from None
        for entry in entries:
            files += 1
            if files > caps.max_files:
                raise WorkspaceRefused(f"{OVER_CAP}more than {caps.max_files} files and folders")
            if len(os.fsencode(entry.path)) - prefix > caps.max_path:
                raise WorkspaceRefused(f"{OVER_CAP}a path longer than {caps.max_path} bytes")
            st = entry.stat(follow_symlinks=False)
            mode = st.st_mode
            if stat.S_ISLNK(mode):
                continue
            if mode & _SETID:
                os.chmod(entry.path, stat.S_IMODE(mode) & ~_SETID, follow_symlinks=False)
            if stat.S_ISDIR(mode):
                stack.append((Path(entry.path), depth + 1))
                continue
            where = _rel(Path(entry.path), workspace)
            if not stat.S_ISREG(mode):
                raise WorkspaceRefused(
                    f"the workspace holds a special file (FIFO, socket or device): {where}"
                )
            size += st.st_size
            if size > caps.max_bytes:
                raise WorkspaceRefused(
                    f"{OVER_CAP}more than {caps.max_bytes} bytes (sparse files count at their full size)"
                )
            if checking_access and not os.access(entry.path, os.R_OK):
                raise WorkspaceRefused(f"the workspace holds a file the harness cannot read: {where}")
    return Stock(files, size)


def _rel(path: Path, root: Path) -> str:
    return printable(path.relative_to(root).as_posix() if path != root else ".")


def _same_bytes(a: Path, b: Path) -> bool:
    try:
        return a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()
    except OSError:
        return False


# Keys of a repository's config that make git run a command, read another file, or change what
# a path means, for whoever runs git in that repository next (`git config --list` names them in
# lower case; the middle part of a three-part key, such as a filter's name, is free).
_RISKY_KEYS = (
    "filter.",
    "diff.",
    "merge.",
    "include.",
    "includeif.",
    "core.fsmonitor",
    "core.hookspath",
    "core.sshcommand",
    "core.pager",
    "core.editor",
    "core.askpass",
    "core.worktree",
    "core.gitproxy",
    "credential.",
    "gpg.",
    "sequence.editor",
    "uploadpack.packobjectshook",
    "alias.",
)


def git_plants(workspace: Path, seeded: Path | None = None) -> list[str]:
    """What the agent left in its workspace's `.git` that would act on whoever runs git there
    next: links and special files (git follows them, writing objects anywhere), config that runs
    a command or reads another file, and hooks. The harness never runs git in this repository
    (it diffs against its own copy of the base); planting such things is an attack on the user
    who opens the kept workspace, so the cell is unsafe with these as the reason. A config file
    byte for byte as in seeded (the harness's copy of the repository) is not read again."""
    git_dir = workspace / ".git"
    found: list[str] = []
    if git_dir.is_symlink():
        return [f".git is a link to {os.readlink(git_dir)}"]
    if not git_dir.is_dir():
        return []
    for dirpath, dirnames, filenames in os.walk(git_dir):
        for name in (*dirnames, *filenames):
            path = Path(dirpath) / name
            rel = printable(path.relative_to(workspace).as_posix())
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                found.append(f"{rel} is a link")
            elif not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
                found.append(f"{rel} is a special file")
            elif (
                path.parent.name == "hooks" and path.parent.parent == git_dir and not name.endswith(".sample")
            ):
                found.append(f"{rel} is a hook")
    for name in ("config", "config.worktree"):
        config = git_dir / name
        if found or not config.is_file() or config.is_symlink():
            continue
        if seeded is not None and _same_bytes(config, seeded / name):
            continue
        # Reading one file, includes not followed: nothing in it can run or be read elsewhere.
        done = gitcmd.run(
            Path("/"), "config", "--file", str(config), "--no-includes", "--list", "--name-only", "-z"
        )
        if done.returncode != 0:
            found.append(f".git/{name} is not a config git can read")
            continue
        keys = sorted({k.decode("utf-8", "replace") for k in done.stdout.split(b"\0") if k})
        risky = [k for k in keys if k.lower().startswith(_RISKY_KEYS)]
        if risky:
            found.append(f".git/{name} sets {', '.join(printable(k) for k in risky[:5])}")
    return found
