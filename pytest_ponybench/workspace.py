"""Cell workspaces: lay a task's seed or fixture (and optionally a reference), snapshot with git."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

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
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "ponybench",
    "GIT_AUTHOR_EMAIL": "ponybench@localhost",
    "GIT_COMMITTER_NAME": "ponybench",
    "GIT_COMMITTER_EMAIL": "ponybench@localhost",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
}


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


def git(workspace: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """git in the workspace with the user's config kept out and a fixed identity."""
    return subprocess.run(
        ["git", "-c", "core.autocrlf=false", "-c", "commit.gpgsign=false", *args],
        cwd=workspace,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **GIT_ENV},
        check=False,
    )


def snapshot(workspace: Path) -> str:
    """git init + commit the seeded state; return the base commit every diff is taken against."""
    for args in (
        ("init", "-q", "-b", "main"),
        ("add", "-A"),
        ("commit", "-q", "--allow-empty", "--no-verify", "-m", "ponybench: seeded base"),
    ):
        done = git(workspace, *args)
        if done.returncode != 0:
            raise RuntimeError(f"git {' '.join(args)} failed in {workspace}: {done.stderr.strip()}")
    return git(workspace, "rev-parse", "HEAD").stdout.strip()


def inside_git_repo(path: Path) -> bool:
    """Whether path lies in a git work tree (the agent would see that repository's history)."""
    probe = subprocess.run(
        ["git", "rev-parse", "--is-inside-work-tree"],
        cwd=path,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    return probe.returncode == 0 and probe.stdout.strip() == "true"
