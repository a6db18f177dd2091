"""files_unchanged on real workspaces: seeded, snapshotted with real git (the harness's own copy
of the base kept outside the workspace), then changed as an agent would (an edit, a deletion,
a Write through an odd path, a link, a rewritten .git); and its task.toml keys."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from pytest_ponybench.core.graders.deterministic import FilesUnchangedGrader
from pytest_ponybench.core.graders.evidence import CellEvidence, WorkspaceFiles
from pytest_ponybench.core.graders.outcome import GradeContext
from pytest_ponybench.core.tasks import TaskError, load_task
from pytest_ponybench.scoring import diff
from pytest_ponybench.scoring.workspace import snapshot

CTX = GradeContext()
TEST = "def test_x():\n    assert add(1, 2) == 3\n"
GRADER = FilesUnchangedGrader(name="tests_unchanged", axis="correct", path=("tests/**",))


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "workspace"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_x.py").write_text(TEST)
    (root / "tests" / "conftest.py").write_text("")
    os.symlink("test_x.py", root / "tests" / "alias.py")
    (root / "app.py").write_text("def add(a, b):\n    return a - b\n")
    snapshot(root, keep=tmp_path / "base.git")
    return root


def grade(ws: Path, grader: FilesUnchangedGrader = GRADER) -> tuple[bool | None, str]:
    git_dir = ws.parent / "base.git"
    ev = CellEvidence(workspace=WorkspaceFiles(ws), base=lambda: diff.base_tree(ws, git_dir))
    out = grader.grade(ev, CTX)
    return out.passed, out.explanation


def test_unchanged_passes_whatever_else_changed(ws: Path) -> None:
    (ws / "app.py").write_text("def add(a, b):\n    return a + b\n")
    (ws / "notes.md").write_text("new\n")
    passed, why = grade(ws)
    assert passed is True, why
    assert why == "3 seeded file(s) under 'tests/**' unchanged, none added"


def test_modified_deleted_and_added_each_fail(ws: Path) -> None:
    (ws / "tests" / "test_x.py").write_text(TEST.replace("3", "-1"))
    assert grade(ws) == (
        False,
        "1 change(s) under 'tests/**' against the seeded base: tests/test_x.py modified",
    )
    (ws / "tests" / "test_x.py").write_text(TEST)
    (ws / "tests" / "conftest.py").unlink()
    assert grade(ws)[1].endswith("tests/conftest.py deleted")
    (ws / "tests" / "conftest.py").write_text("")
    (ws / "tests" / "test_more.py").write_text("")
    assert grade(ws)[1].endswith("tests/test_more.py added")
    # Only the named file: adding beside it is fine.
    only = FilesUnchangedGrader(name="t", path=("tests/test_x.py",))
    assert grade(ws, only)[0] is True


def test_a_write_through_an_odd_path_is_a_change(ws: Path) -> None:
    (ws / "tests" / "sub").mkdir()
    Path(f"{ws}/tests/./sub/..//test_x.py").write_text("def test_x():\n    pass\n")
    passed, why = grade(ws)
    assert passed is False and "tests/test_x.py modified" in why


def test_a_file_replaced_by_a_link_or_a_folder_replaced_by_a_link(ws: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.py"
    copy.write_text(TEST)
    (ws / "tests" / "test_x.py").unlink()
    os.symlink(copy, ws / "tests" / "test_x.py")  # same bytes behind it, but not the file
    passed, why = grade(ws)
    assert passed is False and "tests/test_x.py is now a link" in why
    (ws / "tests" / "test_x.py").unlink()
    (ws / "tests" / "test_x.py").write_text(TEST)
    (ws / "tests" / "alias.py").unlink()
    os.symlink("conftest.py", ws / "tests" / "alias.py")
    assert "tests/alias.py points elsewhere" in grade(ws)[1]
    os.unlink(ws / "tests" / "alias.py")
    os.symlink("test_x.py", ws / "tests" / "alias.py")
    assert grade(ws)[0] is True
    elsewhere = tmp_path / "elsewhere"
    (ws / "tests").rename(elsewhere)
    os.symlink(elsewhere, ws / "tests")
    passed, why = grade(ws)
    assert passed is False and "tests/test_x.py is reached through a link" in why


def test_the_workspace_git_rewritten_does_not_move_the_base(ws: Path) -> None:
    """The base is the harness's copy: a new commit in the workspace's own .git changes nothing."""
    (ws / "tests" / "test_x.py").write_text("def test_x():\n    pass\n")
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@a", "GIT_COMMITTER_NAME": "a"}
    env["GIT_COMMITTER_EMAIL"] = "a@a"
    subprocess.run(["git", "commit", "-qam", "x", "--amend"], cwd=ws, env=env, check=True)
    passed, why = grade(ws)
    assert passed is False and "tests/test_x.py modified" in why


def test_without_a_base_or_with_a_glob_no_seeded_file_matches_it_cannot_decide(ws: Path) -> None:
    out = GRADER.grade(CellEvidence(workspace=WorkspaceFiles(ws)), CTX)
    assert out.passed is None and out.error == "no workspace and seeded base to compare"
    typo = FilesUnchangedGrader(name="t", path=("test/*.py", "spec/**"))
    passed, why = grade(ws, typo)
    assert passed is None and why == "no file of the seeded base matches 'test/*.py', 'spec/**'"


def task_with(tmp_path: Path, path: str) -> Path:
    folder = tmp_path / "t"
    for sub in ("good", "bad", "checks", "seed/tests"):
        (folder / sub).mkdir(parents=True)
    (folder / "task.toml").write_text(
        f'kind = "surgical"\nfile = "mod.py"\naxis = "correct"\n\n'
        f'[[graders]]\nname = "tests_unchanged"\ntype = "files_unchanged"\naxis = "correct"\npath = {path}\n'
    )
    (folder / "prompt.md").write_text("Write add(a, b).\n")
    (folder / "seed" / "tests" / "test_mod.py").write_text("def test_x():\n    pass\n")
    (folder / "good" / "mod.py").write_text("def add(a, b):\n    return a + b\n")
    (folder / "bad" / "mod.py").write_text("def add(a, b):\n    return a - b\n")
    (folder / "checks" / "test_correct.py").write_text("def test_x():\n    pass\n")
    return folder


def test_task_toml_takes_a_glob_or_a_list_of_them(tmp_path: Path) -> None:
    task = load_task(task_with(tmp_path, '["tests/*.py", "conftest.py"]'))
    assert task.graders[0].describe()["path"] == ["tests/*.py", "conftest.py"]
    assert load_task(task_with(tmp_path / "one", '"tests/test_mod.py"')).graders[0].type == "files_unchanged"


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ('"/abs/tests"', "'/abs/tests' must stay inside the workspace (relative, no '..')"),
        ('["tests/*.py", "../x"]', "'../x' must stay inside the workspace"),
        ("[]", "must be a non-empty glob relative to the workspace"),
        ("3", "must be a non-empty glob relative to the workspace"),
    ],
)
def test_a_bad_path_is_one_problem_naming_the_grader_and_key(tmp_path: Path, path: str, said: str) -> None:
    with pytest.raises(TaskError) as info:
        load_task(task_with(tmp_path, path))
    assert len(info.value.problems) == 1
    problem = info.value.problems[0]
    assert "[[graders]] #1 'tests_unchanged': key 'path'" in problem and said in problem, problem
