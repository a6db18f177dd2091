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


def test_snapshot_writes_what_git_init_writes_and_commits_the_same_base(tmp_path: Path) -> None:
    """git init runs once per process and its files are written per cell: the same files, modes
    and base commit as init, add and commit run in the workspace; the harness's copy leaves out
    only the sample hooks and the description, which no git command of the harness reads."""

    def tree(root: Path) -> dict[str, tuple[int, bytes | None]]:
        return {
            p.relative_to(root).as_posix(): (p.lstat().st_mode, None if p.is_dir() else p.read_bytes())
            for p in root.rglob("*")
        }

    cells = [tmp_path / name / "workspace" for name in ("a", "b", "by-hand")]
    for ws in cells:
        workspace.lay(task_with_seed(tmp_path), ws)
    bases = [workspace.snapshot(ws, keep=ws.parent / "base.git") for ws in cells[:2]]
    by_hand = cells[2]
    gitcmd.check(by_hand, "init", "-q", "-b", "main")
    gitcmd.check(by_hand, "add", "-A", repo=by_hand)
    gitcmd.check(
        by_hand, "commit", "-q", "--allow-empty", "--no-verify", "-m", "ponybench: seeded base", repo=by_hand
    )
    expected = gitcmd.check(by_hand, "rev-parse", "HEAD", repo=by_hand).decode().strip()
    assert bases == [expected, expected]
    want = {k: v for k, v in tree(by_hand / ".git").items() if k != "index"}  # the index holds stat data
    for ws in cells[:2]:
        assert {k: v for k, v in tree(ws / ".git").items() if k != "index"} == want
        kept = tree(ws.parent / "base.git")
        assert set(want) - set(kept) == {k for k in want if k.split("/")[0] in ("hooks", "description")}
        assert sorted(p.name for p in ws.parent.iterdir()) == ["base.git", "workspace"]  # init's folder gone
        assert workspace.inside_git_repo(ws) and not workspace.inside_git_repo(ws.parent)


def test_inside_git_repo_asks_git_wherever_a_repository_could_be(tmp_path: Path) -> None:
    """A bare repository up the path (HEAD, no .git) is git's to judge: it is no work tree."""
    bare = tmp_path / "bare.git"
    gitcmd.check(tmp_path, "init", "-q", "--bare", str(bare))
    (bare / "inside").mkdir()
    assert not workspace.inside_git_repo(bare / "inside")
    linked = tmp_path / "linked"
    (linked / "deep").mkdir(parents=True)
    outer = outer_repo(tmp_path / "outer")
    (linked / ".git").write_text(f"gitdir: {outer / '.git'}\n")  # a worktree's .git file
    assert workspace.inside_git_repo(linked / "deep")
