"""git with a clean environment: an exported GIT_DIR or an enclosing repository never reached,
inherited git variables dropped, a failure naming the command, repository hooks never run.
Real git. (The other helpers every module shares: test_textfiles, test_procs.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_ponybench._util import gitcmd
from pytest_ponybench.core.tasks import Task
from pytest_ponybench.scoring import workspace

# --- git ------------------------------------------------------------------------------------------


def outer_repo(path: Path) -> Path:
    """A real repository with one commit, standing for the project the harness runs in."""
    path.mkdir()
    (path / "README").write_text("outer\n")
    gitcmd.check(path, "init", "-q", "-b", "main")
    gitcmd.check(path, "add", "-A")
    gitcmd.check(path, "commit", "-q", "-m", "outer base")
    return path


def commits(repo: Path) -> list[str]:
    return gitcmd.check(repo, "rev-list", "--all", repo=repo).decode().split()


def task_with_seed(tmp_path: Path) -> Task:
    return Task(id="t", path=tmp_path, kind="surgical", prompt="p", file="a.py", seed={"a.py": b"x = 1\n"})


@pytest.mark.parametrize("exported", ["GIT_DIR", "GIT_DIR+GIT_WORK_TREE+GIT_INDEX_FILE"])
def test_snapshot_with_git_dir_exported_commits_nothing_into_the_outer_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exported: str
) -> None:
    # git exports these to every hook it runs: a harness started from a hook inherits them.
    outer = outer_repo(tmp_path / "outer")
    before = commits(outer)
    index_before = (outer / ".git" / "index").read_bytes()
    monkeypatch.setenv("GIT_DIR", str(outer / ".git"))
    if "GIT_WORK_TREE" in exported:
        monkeypatch.setenv("GIT_WORK_TREE", str(outer))
        monkeypatch.setenv("GIT_INDEX_FILE", str(outer / ".git" / "index"))
    ws = tmp_path / "cell" / "workspace"
    workspace.lay(task_with_seed(tmp_path), ws)
    assert not workspace.inside_git_repo(ws.parent)  # the cell's scratch is no repository
    base = workspace.snapshot(ws)
    monkeypatch.delenv("GIT_DIR")
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)
    monkeypatch.delenv("GIT_INDEX_FILE", raising=False)
    assert commits(outer) == before
    assert (outer / ".git" / "index").read_bytes() == index_before
    assert commits(ws) == [base]
    tracked = gitcmd.check(ws, "ls-files", repo=ws).decode().split()
    assert tracked == ["a.py"]
    # The kept workspace's repository names no work tree of its own: it can move into the run dir.
    assert "worktree" not in (ws / ".git" / "config").read_text()


def test_inside_git_repo_sees_an_enclosing_repository_and_only_that(tmp_path: Path) -> None:
    outer = outer_repo(tmp_path / "outer")
    (outer / "sub").mkdir()
    assert workspace.inside_git_repo(outer / "sub")
    (tmp_path / "plain").mkdir()
    assert not workspace.inside_git_repo(tmp_path / "plain")


def test_clean_env_drops_every_inherited_git_variable() -> None:
    base = {"PATH": "/bin", "GIT_DIR": "/x", "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.pager"}
    env = gitcmd.clean_env({"GIT_DIR": "/ws/.git"}, base=base)
    assert env["PATH"] == "/bin"
    assert env["GIT_DIR"] == "/ws/.git"
    assert "GIT_CONFIG_COUNT" not in env and "GIT_CONFIG_KEY_0" not in env
    assert env["GIT_CONFIG_GLOBAL"] == os.devnull and env["GIT_CONFIG_NOSYSTEM"] == "1"


def test_git_failure_names_the_command_and_gits_message(tmp_path: Path) -> None:
    with pytest.raises(gitcmd.GitError, match=r"git rev-parse HEAD failed in .*: fatal"):
        gitcmd.check(tmp_path, "rev-parse", "HEAD", repo=tmp_path)


def test_repository_hooks_never_run(tmp_path: Path) -> None:
    ws = outer_repo(tmp_path / "ws")
    marker = tmp_path / "hook-ran"
    hook = ws / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    (ws / "b").write_text("b\n")
    gitcmd.check(ws, "add", "-A", repo=ws)
    gitcmd.check(ws, "commit", "-q", "-m", "b", repo=ws)  # no --no-verify: the hook is simply off
    assert not marker.exists()


# --- JSON lines and log tails ---------------------------------------------------------------------


# --- the process table ----------------------------------------------------------------------------


# --- links that leave the workspace ---------------------------------------------------------------


# --- JSON files on a full disk --------------------------------------------------------------------
