"""The small helpers every module shares: git with a clean environment, JSON lines and log
tails, the process table, the symlink check. Real git, real files, real processes."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_ponybench._util import gitcmd, procs
from pytest_ponybench._util.textfiles import parse_jsonl, quote, quote_file, read_jsonl
from pytest_ponybench.core.tasks import Task
from pytest_ponybench.isolation.sandbox import Spawned, kill_group
from pytest_ponybench.scoring import workspace
from pytest_ponybench.store.results import write_json
from tests.support import small_tmpfs

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


def test_parse_jsonl_skips_blank_and_counts_torn_and_non_object_lines() -> None:
    data = b'{"a": 1}\n\n{"b": 2\n[1, 2]\n"text"\n\xff\xfe{"c": 3}\n{"d": 4}'
    lines = parse_jsonl(data)
    assert lines.objects == [{"a": 1}, {"d": 4}]
    assert lines.bad == 4


def test_parse_jsonl_keeps_a_line_separator_inside_a_string() -> None:
    # JavaScript's JSON.stringify leaves U+2028 unescaped; str.splitlines would cut there.
    text = json.dumps({"text": "a\u2028b\u2029c\x1cd"}, ensure_ascii=False) + "\n"
    assert parse_jsonl(text.encode()).objects == [{"text": "a\u2028b\u2029c\x1cd"}]


def test_read_jsonl_of_a_missing_file_is_empty_and_of_a_folder_raises(tmp_path: Path) -> None:
    assert read_jsonl(tmp_path / "nope.jsonl").objects == []
    with pytest.raises(IsADirectoryError):
        read_jsonl(tmp_path)


def test_quote_file_reads_only_the_ends_of_a_big_log(tmp_path: Path) -> None:
    log = tmp_path / "stderr"
    log.write_bytes(
        b"Traceback (most recent call last):\n" + b"noise\n" * 100_000 + b"ValueError: \xff bad\n\n  \n"
    )
    assert quote_file(log) == "Traceback (most recent call last): … ValueError: \ufffd bad"
    assert quote_file(tmp_path / "missing") == ""
    (tmp_path / "empty").write_bytes(b"")
    assert quote_file(tmp_path / "empty") == ""


NODE_CRASH = """node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module '/tmp/x/plugin/hooks/session-start.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Module._load (node:internal/modules/cjs/loader:1038:27)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2
"""


def test_a_quote_keeps_the_first_and_last_lines_and_the_error_between() -> None:
    said = quote(NODE_CRASH)
    assert said == (
        "node:internal/modules/cjs/loader:1210 … Error: Cannot find module "
        "'/tmp/x/plugin/hooks/session-start.js' … Node.js v20.20.2"
    )
    # However short the room, each end and the error keep their start.
    for limit in (40, 60, 100, 200):
        short = quote(NODE_CRASH, limit)
        assert len(short) <= limit + 2, (limit, short)
        first, error, last = short.split(" … ")
        assert first.startswith("node:") and error.startswith("Error") and last.startswith("Node.js")
    assert quote(NODE_CRASH, 100).endswith(" … Node.js v20.20.2")  # a short last line stays whole


def test_a_python_traceback_keeps_what_failed_whole_when_room_is_short() -> None:
    text = (
        'Traceback (most recent call last):\n  File "/x/y.py", line 3\n'
        "ModuleNotFoundError: No module named 'foo'"
    )
    assert (
        quote(text) == 'Traceback (most recent call last): | File "/x/y.py", line 3 | ' + text.split("\n")[-1]
    )
    assert quote(text, 70) == "Traceback (most recent… … ModuleNotFoundError: No module named 'foo'"


def test_one_long_line_is_cut_between_words() -> None:
    said = quote("AssertionError: safe_next('//evil.example/') returned '//evil.example/', " * 10, 80)
    assert said.endswith("…") and len(said) <= 80
    assert said.startswith("AssertionError: safe_next(") and not said[:-1].endswith((" ", "'//evil"))
    assert quote("  \n\n ") == "" and quote("one\ntwo") == "one | two"


# --- the process table ----------------------------------------------------------------------------


def test_group_members_and_descendants_of_a_real_process_tree() -> None:
    # A parent in its own group that starts a grandchild: both are seen, by group and by tree.
    sleep = "import time; time.sleep(30)"
    code = f"import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', {sleep!r}])\n{sleep}"
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while len(procs.group_members(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        members = procs.group_members(proc.pid)
        assert proc.pid in members and len(members) == 2
        below = procs.descendants(os.getpid(), procs.processes())
        assert set(members) <= below
        mine = procs.read(proc.pid)
        assert mine is not None and mine.ppid == os.getpid() and mine.pgid == proc.pid
        assert procs.cmdline(proc.pid)[:2] == [sys.executable, "-c"]
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()
    deadline = time.monotonic() + 5
    while procs.group_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert procs.group_members(proc.pid) == []
    assert procs.read(2**22 + 1) is None  # beyond pid_max: gone, not an error


# --- links that leave the workspace ---------------------------------------------------------------


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


# --- JSON files on a full disk --------------------------------------------------------------------


def test_write_json_on_a_full_disk_keeps_the_old_file_whole_and_leaves_no_temp(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "small", "64k") as small:
        target = small / "summary.json"
        write_json(target, {"rows": [1, 2, 3]})
        with pytest.raises(OSError) as raised:
            write_json(target, {"rows": ["x" * 1000] * 200})  # 200 kB on a 64 kB disk
        assert raised.value.errno == errno.ENOSPC
        assert json.loads(target.read_text()) == {"rows": [1, 2, 3]}
        assert [p.name for p in small.iterdir()] == ["summary.json"]


def test_spawned_reports_the_cpu_of_its_child_and_what_the_child_waited_for() -> None:
    busy = "import subprocess, sys\nsubprocess.run([sys.executable, '-c', 'sum(range(10**7))'])\n"
    child = Spawned(subprocess.Popen([sys.executable, "-c", busy]))
    assert child.wait(timeout=60) == 0
    assert child.cpu_s is not None and child.cpu_s > 0.1  # the grandchild's sum is in it


def test_spawned_wait_times_out_like_popen_and_kill_group_still_reaps() -> None:
    child = Spawned(
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    )
    with pytest.raises(subprocess.TimeoutExpired):
        child.wait(timeout=0.1)
    kill_group(child, grace_s=0.1)
    assert child.returncode == -signal.SIGTERM and child.cpu_s is not None


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
