"""The workspace's diff against the seeded base (real git): changed, new and deleted files; no
symlink followed and nothing the agent put in git config run; with the seeded manifest, git read
only when a seeded file changed; a workspace without git has no base."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pytest_ponybench.scoring import diff
from pytest_ponybench.scoring.workspace import snapshot


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "workspace"
    (ws / "pkg").mkdir(parents=True)
    (ws / "pkg" / "a.py").write_text("one\ntwo\nthree\n")
    (ws / "gone.py").write_text("bye\n")
    snapshot(ws)
    return ws


def test_diff_against_the_seeded_base_shows_changed_new_and_deleted_files(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    (ws / "pkg" / "a.py").write_text("one\nTWO\nthree\n")
    (ws / "gone.py").unlink()
    (ws / "new.py").write_text("fresh\n")
    (ws / "blob.bin").write_bytes(b"\0\1\2")
    base = diff.base_files(ws)
    assert base == {"pkg/a.py": b"one\ntwo\nthree\n", "gone.py": b"bye\n"}
    text = diff.workspace_diff(ws, lambda: base)
    assert "diff --git a/pkg/a.py b/pkg/a.py\n--- a/pkg/a.py\n+++ b/pkg/a.py\n" in text
    assert "-two\n+TWO\n" in text
    assert "diff --git a/gone.py b/gone.py\ndeleted file\n" in text and "-bye\n" in text
    assert (
        "diff --git a/new.py b/new.py\nnew file\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,1 @@\n+fresh\n"
        in text
    )
    assert "diff --git a/blob.bin b/blob.bin\nnew file\nBinary files differ\n" in text
    assert ".git/" not in text


def test_diff_never_follows_a_symlink_nor_runs_what_the_agent_put_in_git_config(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET\n")
    (ws / "link.py").symlink_to(secret)
    ran = tmp_path / "filter-ran"
    with open(ws / ".git" / "config", "a") as fh:
        fh.write(f'[filter "evil"]\n\tclean = touch {ran}\n\tsmudge = touch {ran}\n')
    (ws / ".gitattributes").write_text("* filter=evil\n")
    text = diff.workspace_diff(ws, lambda: diff.base_files(ws))
    assert f"+{secret}" in text and "TOP SECRET" not in text
    assert not ran.exists()


def test_with_the_seeded_manifest_git_is_read_only_when_a_seeded_file_changed(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    seeded = {rel: hashlib.sha256((ws / rel).read_bytes()).hexdigest() for rel in ("pkg/a.py", "gone.py")}
    (ws / "new.py").write_text("fresh\n")

    def no_git() -> dict[str, bytes]:
        raise AssertionError("the base was read although no seeded file changed")

    only_new = diff.workspace_diff(ws, no_git, seeded)
    assert only_new == diff.workspace_diff(ws, lambda: diff.base_files(ws))
    assert only_new.startswith("diff --git a/new.py b/new.py\nnew file\n")
    (ws / "pkg" / "a.py").write_text("one\n")
    (ws / "gone.py").unlink()
    changed = diff.workspace_diff(ws, lambda: diff.base_files(ws), seeded)
    assert changed == diff.workspace_diff(ws, lambda: diff.base_files(ws))
    assert "-two\n-three\n" in changed and "deleted file" in changed


def test_a_workspace_without_git_has_no_base(tmp_path: Path) -> None:
    with pytest.raises(diff.BaseUnreadable, match="no .git"):
        diff.base_files(tmp_path)
