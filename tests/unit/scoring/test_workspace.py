"""The workspace's caps (entries, bytes, depth); its symlink check: the links that leave it are
named, and only those; the seeded base's repository, kept by content, written again for a content
seeded alike. Real files, real git."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from pytest_ponybench._util import gitcmd
from pytest_ponybench.scoring import workspace


def test_escaping_links_names_links_that_leave_and_only_those(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "pkg").mkdir(parents=True)
    (ws / "pkg" / "real.py").write_text("x = 1\n")
    (ws / "inside.py").symlink_to("pkg/real.py")
    (ws / "self").symlink_to(".")
    (ws / "pkg" / "up").symlink_to("../../outside")
    (ws / "abs").symlink_to("/etc/passwd")
    (ws / ".git").mkdir()
    (ws / ".git" / "ignored").symlink_to("/etc")
    assert workspace.escaping_links(ws) == ["abs -> /etc/passwd", "pkg/up -> ../../outside"]
    assert workspace.leaves(ws / "abs", ws) and not workspace.leaves(ws / "self", ws)


def _seed(ws: Path, body: str = "x = 1\n", target: str = "pkg/real.py") -> Path:
    (ws / "pkg").mkdir(parents=True)
    (ws / "pkg" / "real.py").write_text(body)
    (ws / "run.sh").write_text("#!/bin/sh\n")
    (ws / "run.sh").chmod(0o755)
    (ws / "link.py").symlink_to(target)
    (ws / ".gitignore").write_text("*.log\n")
    (ws / "skip.log").write_text("ignored\n")
    return ws


def _git_files(ws: Path) -> dict[str, bytes]:
    """What git wrote, the index aside (its stat data are the workspace's own)."""
    git = ws / ".git"
    return {
        p.relative_to(git).as_posix(): p.read_bytes()
        for p in sorted(git.rglob("*"))
        if p.is_file() and p.name != "index"
    }


def test_a_content_seeded_again_gets_the_repository_git_wrote_without_running_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workspace, "_REPOS", workspace._Repos())
    first = workspace.snapshot(_seed(tmp_path / "one"), keep=tmp_path / "one.git")
    with monkeypatch.context() as no_git:
        no_git.setenv("PATH", str(tmp_path / "empty"))  # any git process would fail to start
        again = workspace.snapshot(_seed(tmp_path / "two"), keep=tmp_path / "two.git")
    assert again == first
    monkeypatch.setattr(workspace, "_REPOS", workspace._Repos())  # what git itself writes now
    assert workspace.snapshot(_seed(tmp_path / "three")) == first
    assert _git_files(tmp_path / "two") == _git_files(tmp_path / "three")
    assert (tmp_path / "two.git" / "HEAD").read_bytes() == (tmp_path / "one.git" / "HEAD").read_bytes()
    status = subprocess.run(
        ["git", "status", "--porcelain", "--ignored"],
        cwd=tmp_path / "two",
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout == "!! skip.log\n"  # clean once git has refreshed the index
    tree = subprocess.run(
        ["git", "ls-tree", "-r", "HEAD"], cwd=tmp_path / "two", capture_output=True, text=True, check=True
    )
    assert [line.split()[0] + " " + line.split("\t")[1] for line in tree.stdout.splitlines()] == [
        "100644 .gitignore",
        "120000 link.py",
        "100644 pkg/real.py",
        "100755 run.sh",
    ]


@pytest.mark.parametrize("change", ["content", "mode", "link", "ignored file"])
def test_a_content_differing_in_anything_git_reads_gets_its_own_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    monkeypatch.setattr(workspace, "_REPOS", workspace._Repos())
    first = workspace.snapshot(_seed(tmp_path / "one"))
    ws = _seed(tmp_path / "two", **({"body": "x = 2\n"} if change == "content" else {}))
    if change == "mode":
        (ws / "run.sh").chmod(0o644)
    elif change == "link":
        (ws / "link.py").unlink()
        (ws / "link.py").symlink_to("run.sh")
    elif change == "ignored file":
        (ws / "skip.log").write_text("other\n")  # git ignores it, so the same commit, from git
    base = workspace.snapshot(ws)
    assert (base == first) is (change == "ignored file")
    monkeypatch.setattr(workspace, "_REPOS", workspace._Repos())
    (ws / ".git").rename(tmp_path / "two-cached.git")
    assert workspace.snapshot(ws) == base  # what git itself commits for that content


def test_a_large_content_is_committed_by_git_each_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond _KEY_PATHS paths (a fixture repository) git is faster than the kept copy."""
    monkeypatch.setattr(workspace, "_REPOS", workspace._Repos())
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        for i in range(workspace._KEY_PATHS + 1):
            (tmp_path / name / f"f{i}.txt").write_text(f"{i}\n")
    workspace.snapshot(tmp_path / "one")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(gitcmd.GitError):  # git was asked again, and is not there
        workspace.snapshot(tmp_path / "two")


def nested(top: Path, levels: int) -> None:
    os.makedirs(top / Path(*["d"] * levels))


def test_take_stock_refuses_folders_nested_deeper_than_the_cap(tmp_path: Path) -> None:
    caps = workspace.Caps(max_depth=5)
    nested(tmp_path / "ok", 5)
    assert workspace.take_stock(tmp_path / "ok", caps).files == 5
    nested(tmp_path / "deep", 6)
    with pytest.raises(workspace.WorkspaceRefused, match="^over the cap: folders nested more than 5 deep$"):
        workspace.take_stock(tmp_path / "deep", caps)
    # The default stops well before the copies and walks that follow would recurse too deep.
    nested(tmp_path / "deeper", 200)
    with pytest.raises(workspace.WorkspaceRefused, match="more than 128 deep"):
        workspace.take_stock(tmp_path / "deeper", workspace.DEFAULT_CAPS)


def test_take_stock_refuses_too_many_entries_and_too_many_bytes(tmp_path: Path) -> None:
    for n in range(4):
        (tmp_path / f"f{n}").write_bytes(b"x" * 10)
    assert workspace.take_stock(tmp_path, workspace.Caps(max_files=4, max_bytes=40)).bytes == 40
    with pytest.raises(workspace.WorkspaceRefused, match="more than 3 files and folders"):
        workspace.take_stock(tmp_path, workspace.Caps(max_files=3))
    with pytest.raises(workspace.WorkspaceRefused, match="more than 39 bytes"):
        workspace.take_stock(tmp_path, workspace.Caps(max_bytes=39))


def test_take_stock_refuses_a_path_longer_than_the_cap(tmp_path: Path) -> None:
    (tmp_path / ("a" * 60) / ("b" * 60)).mkdir(parents=True)
    (tmp_path / ("a" * 60) / ("b" * 60) / "c.txt").write_text("x")  # 127 bytes
    assert workspace.take_stock(tmp_path, workspace.Caps(max_path=127)).files == 3
    with pytest.raises(workspace.WorkspaceRefused, match="^over the cap: a path longer than 126 bytes$"):
        workspace.take_stock(tmp_path, workspace.Caps(max_path=126))
