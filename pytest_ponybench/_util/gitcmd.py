"""git, run by the harness on folders it made: never the repository the harness lives in.

git reads its whole behaviour from the environment and from config files. A hook of the outer
repository exports GIT_DIR, GIT_INDEX_FILE and GIT_WORK_TREE to every command it starts, so a
harness that simply inherits its environment commits a cell's workspace into the outer
repository. Every inherited GIT_* variable is therefore dropped, the user's and the system's
config are kept out, and the identity and dates are fixed so a base commit is reproducible.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

__all__ = ["GitError", "TIMEOUT_S", "check", "clean_env", "run"]

TIMEOUT_S = 120.0
_FIXED = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_AUTHOR_NAME": "ponybench",
    "GIT_AUTHOR_EMAIL": "ponybench@localhost",
    "GIT_COMMITTER_NAME": "ponybench",
    "GIT_COMMITTER_EMAIL": "ponybench@localhost",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
}
# Config a repository (which the agent may have written) could use to run a command or to
# change what a path means; filters cannot be switched off by flag and are refused by callers.
_FLAGS = (
    "--no-pager",
    "--literal-pathspecs",
    "-c",
    "core.autocrlf=false",
    "-c",
    "core.safecrlf=false",
    "-c",
    "core.quotepath=false",
    "-c",
    "core.fsmonitor=false",
    "-c",
    f"core.hooksPath={os.devnull}",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "gc.auto=0",
    "-c",
    "maintenance.auto=false",
)


class GitError(RuntimeError):
    """git could not run, or failed, in a folder of the harness."""


def clean_env(
    pinned: Mapping[str, str] | None = None, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """base (the process environment) without any GIT_* variable, plus our fixed ones and pinned."""
    src = os.environ if base is None else base
    env = {k: v for k, v in src.items() if not k.startswith("GIT_")}
    env.update(_FIXED)
    env.update(pinned or {})
    return env


def run(
    cwd: Path, *args: str, repo: Path | None = None, stdin: bytes = b"", git_dir: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """git args in cwd; with repo, git is pinned to repo as the work tree and to git_dir (by
    default repo/.git) as the repository, so it can neither climb into an enclosing repository
    nor follow a stale GIT_DIR.

    Never raises on git's own failure (the caller reads returncode); raises GitError when git
    cannot start or does not finish in TIMEOUT_S.
    """
    pinned: dict[str, str] = {}
    if repo is not None:
        pinned = {"GIT_DIR": str(git_dir or repo / ".git"), "GIT_WORK_TREE": str(repo)}
    safe = ("-c", f"safe.directory={repo if repo is not None else cwd}")
    try:
        return subprocess.run(
            ["git", *_FLAGS, *safe, *args],
            cwd=cwd,
            env=clean_env(pinned),
            input=stdin,
            capture_output=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitError(f"git {args[0] if args else ''} in {cwd}: {exc}") from exc


def check(
    cwd: Path, *args: str, repo: Path | None = None, stdin: bytes = b"", git_dir: Path | None = None
) -> bytes:
    """git args, its stdout; a failure raises GitError with git's own message."""
    done = run(cwd, *args, repo=repo, stdin=stdin, git_dir=git_dir)
    if done.returncode != 0:
        err = done.stderr.decode("utf-8", "replace").strip()
        raise GitError(f"git {' '.join(args[:2])} failed in {cwd}: {err}")
    return done.stdout
