"""A benchmark started from inside a git hook: git exports GIT_DIR (and for some hooks
GIT_WORK_TREE and GIT_INDEX_FILE) to everything the hook runs. Cells must still run, measure
their own diff, and leave the repository around them untouched."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import records, run_dirs

pytestmark = pytest.mark.needs_claude


def git(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@localhost")
    env.update(GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@localhost")
    done = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True)
    return done.stdout


def test_cells_run_with_git_dir_exported_and_commit_nothing_outside(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = bench_project(tasks=["cart_bogo"])  # a fixture task: its metrics come from git diff
    outer = root / "outer"
    outer.mkdir()
    (outer / "README").write_text("the project the hook belongs to\n")
    git(outer, "init", "-q", "-b", "main")
    git(outer, "add", "-A")
    git(outer, "commit", "-q", "-m", "outer base")
    before = git(outer, "rev-list", "--all").split()
    index = (outer / ".git" / "index").read_bytes()
    monkeypatch.setenv("GIT_DIR", str(outer / ".git"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(outer / ".git" / "index"))
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-reference", "--cell-retries", "0"
    )
    monkeypatch.delenv("GIT_DIR")
    monkeypatch.delenv("GIT_INDEX_FILE")
    result.assert_outcomes(passed=1)
    rec = records(run_dirs(root)[0])[0]
    assert rec["valid"] and rec["correct"], rec
    assert rec["src_loc"] > 0, rec  # the diff against the cell's own base commit was measured
    assert git(outer, "rev-list", "--all").split() == before
    assert (outer / ".git" / "index").read_bytes() == index
    assert git(outer, "status", "--porcelain") == ""
