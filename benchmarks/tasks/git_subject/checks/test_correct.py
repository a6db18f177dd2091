import importlib
import os
import subprocess

import pytest

def load():
    try:
        return importlib.import_module("gitinfo")
    except Exception as exc:
        pytest.fail(f"could not import gitinfo.py: {exc!r}")

ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
       "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
       "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


@pytest.fixture
def repo(tmp_path, monkeypatch):
    path = tmp_path / "repo"
    path.mkdir()
    for args in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "First commit"],
                 ["tag", "v1"], ["commit", "-q", "--allow-empty", "-m", "Fix the login form"]):
        subprocess.run(["git", *args], cwd=path, env=ENV, check=True, capture_output=True)
    for key in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"):
        monkeypatch.setenv(key, ENV[key])
    return path


def test_subject_of_head_branch_and_tag(repo):
    mod = load()
    assert mod.commit_subject(str(repo), "main") == "Fix the login form"
    assert mod.commit_subject(repo, "v1") == "First commit"
    assert mod.commit_subject(str(repo), "HEAD~1") == "First commit"


def test_subject_by_hash(repo):
    sha = subprocess.run(["git", "rev-parse", "v1"], cwd=repo, env=ENV, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert load().commit_subject(str(repo), sha[:10]) == "First commit"


def test_empty_subject(repo):
    subprocess.run(["git", "commit", "-q", "--allow-empty", "--allow-empty-message", "-m", ""],
                   cwd=repo, env=ENV, check=True, capture_output=True)
    got = load().commit_subject(str(repo), "HEAD")
    assert got == "", f"a commit with an empty message has an empty subject, got {got!r}"


@pytest.mark.parametrize("rev", ["nope", "v2", "0123456789abcdef0123"])
def test_unknown_revision_raises_value_error(repo, rev):
    with pytest.raises(ValueError):
        load().commit_subject(str(repo), rev)
        pytest.fail(f"commit_subject(repo, {rev!r}) should raise ValueError")


def test_annotated_tag_gives_its_commit_s_subject(repo):
    """An annotated tag is a tag object: `git show` of it prints the tag's header too."""
    subprocess.run(["git", "tag", "-a", "v1.1", "-m", "Release notes line", "v1"], cwd=repo, env=ENV,
                   check=True, capture_output=True)
    got = load().commit_subject(str(repo), "v1.1")
    assert got == "First commit", f"commit_subject(repo, 'v1.1') for an annotated tag of v1 gave {got!r}"


def test_a_tree_is_not_a_commit(repo):
    """A tree hash resolves, but not to a commit: the prompt asks for ValueError."""
    tree = subprocess.run(["git", "rev-parse", "HEAD^{tree}"], cwd=repo, env=ENV, capture_output=True,
                          text=True, check=True).stdout.strip()
    with pytest.raises(ValueError):
        got = load().commit_subject(str(repo), tree)
        pytest.fail(f"commit_subject(repo, <a tree hash>) returned {got!r}; it should raise ValueError")
