"""Removing what untrusted code wrote: deeper than Python recurses, longer than PATH_MAX."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pytest_ponybench._util import trees

NAME = "n" * 60  # 1,200 of these make a path of 73 KB, far past PATH_MAX (4 KB)


def deep(top: Path, levels: int, locked_at: int | None = None) -> None:
    """A tree `levels` folders deep, built as code in a cell would (one folder at a time,
    relative to the last: no path is ever spelled out), a file at the bottom."""
    top.mkdir()
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for level in range(levels):
            os.mkdir(NAME, dir_fd=fd)
            inner = os.open(NAME, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
            if level == locked_at:
                os.chmod(fd, 0o000)
        os.close(os.open("bottom.txt", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd))
    finally:
        os.close(fd)


def test_a_tree_deeper_than_python_recurses_and_longer_than_path_max_is_removed(tmp_path: Path) -> None:
    top = tmp_path / "deep"
    deep(top, 1200, locked_at=600)
    with pytest.raises((RecursionError, OSError)):
        shutil.rmtree(top)  # the harness's removal before this: it gave up and left it all
    assert top.exists()
    assert trees.remove(top) is True
    assert not top.exists() and list(tmp_path.iterdir()) == []


def test_a_shallow_tree_a_file_and_a_link_are_removed_and_a_links_target_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    (target / "kept.txt").write_text("kept\n")
    tree = tmp_path / "tree"
    (tree / "a" / "b").mkdir(parents=True)
    (tree / "a" / "b" / "f.txt").write_text("x\n")
    (tree / "out").symlink_to(target)
    (tree / "a").chmod(0o500)
    link, file = tmp_path / "link", tmp_path / "file.txt"
    link.symlink_to(target)
    file.write_text("y\n")
    assert trees.remove(tree) and trees.remove(link) and trees.remove(file)
    assert trees.remove(tmp_path / "never-there")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target"]
    assert (target / "kept.txt").read_text() == "kept\n"


def test_a_folder_that_cannot_be_listed_is_removed_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rmtree opens each folder by file descriptor; one it cannot open or list is reported
    with os.open or os.scandir, which cannot be asked again by path: rm removes it."""
    tree = tmp_path / "tree"
    (tree / "locked" / "inner").mkdir(parents=True)
    (tree / "locked" / "inner" / "f.txt").write_text("x\n")
    calls: list[str] = []
    real_open = os.open

    def failing_open(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if str(path) == "locked":
            calls.append("open")
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    # As a harness that is not root meets a folder of mode 000 (root opens any folder).
    monkeypatch.setattr(os, "open", failing_open)
    assert trees.remove(tree)
    monkeypatch.undo()
    assert calls and not tree.exists()
