import importlib
import os
import subprocess

import pytest

import payloads

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


OPTIONS = ["--output=pwned", "--output=../pwned", "-opwned", "--output={tmp}/pwned"]
SHELL = [payloads.shell(name, "pwned", "main") for name in sorted(payloads.SHELL)]


@pytest.mark.parametrize("rev", SHELL + OPTIONS)
def test_rev_is_never_a_command_or_an_option(repo, rev, tmp_path, monkeypatch):
    """Wherever the code runs git from (-C, cwd= or --git-dir without either), a file the
    revision made lands under tmp_path: the process's own working directory is moved there."""
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    rev = rev.replace("{tmp}", str(tmp_path))
    try:
        load().commit_subject(str(repo), rev)
    except Exception:
        pass  # refusing is the right answer
    made = sorted(p for p in tmp_path.rglob("pwned*") if ".git" not in p.relative_to(tmp_path).parts)
    assert not made, (
        f"commit_subject(repo, {rev!r}) created {made[0].relative_to(tmp_path)}: the revision was run by the shell "
        "or read as a git option (injection); pass a list of arguments and refuse a leading '-'")
