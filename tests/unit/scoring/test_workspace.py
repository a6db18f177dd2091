"""The workspace's symlink check: the links that leave it are named, and only those. Real files."""

from __future__ import annotations

from pathlib import Path

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
