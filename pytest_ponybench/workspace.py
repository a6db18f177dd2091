"""Cell workspaces: lay a task's seed or fixture (and optionally a reference), snapshot with git."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from . import gitcmd
from .tasks import Task

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


def snapshot(workspace: Path) -> str:
    """git init + commit the seeded state; return the base commit every diff is taken against."""
    # init unpinned (a pinned work tree would be written into the new repository's config),
    # the rest pinned to the workspace's own .git.
    steps: list[tuple[Path | None, tuple[str, ...]]] = [
        (None, ("init", "-q", "-b", "main")),
        (workspace, ("add", "-A")),
        (workspace, ("commit", "-q", "--allow-empty", "--no-verify", "-m", "ponybench: seeded base")),
    ]
    for repo, args in steps:
        done = gitcmd.run(workspace, *args, repo=repo)
        if done.returncode != 0:
            err = done.stderr.decode("utf-8", "replace").strip()
            raise RuntimeError(f"git {' '.join(args)} failed in {workspace}: {err}")
    return gitcmd.check(workspace, "rev-parse", "HEAD", repo=workspace).decode().strip()


def inside_git_repo(path: Path) -> bool:
    """Whether path lies in a git work tree (the agent would see that repository's history)."""
    probe = gitcmd.run(path, "rev-parse", "--is-inside-work-tree")
    return probe.returncode == 0 and probe.stdout.strip() == b"true"
