import importlib
import os
import shutil
import sys
import stat
import tempfile
import time
from pathlib import Path

import pytest

def load():
    try:
        return importlib.import_module("reports")
    except Exception as exc:
        pytest.fail(f"could not import reports.py: {exc!r}")

@pytest.fixture(autouse=True)
def shared_tmp(tmp_path, monkeypatch):
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    monkeypatch.setenv("TMPDIR", str(shared))
    old = os.umask(0o022)  # the usual umask of a server process
    yield shared
    os.umask(old)


def call(mod, text):
    """The path written, or None when save_report raised (nothing written, nothing to judge)."""
    try:
        return Path(mod.save_report(text))
    except Exception:
        return None


def readers(path, shared):
    """Who besides the owner can read path: the group or others need read on the file and
    search on every folder between the shared temp dir (open to all, like /tmp) and it."""
    folders = [p for p in path.parents if shared in p.parents]
    found = []
    for who, read, search in (("the group", stat.S_IRGRP, stat.S_IXGRP), ("other accounts", stat.S_IROTH, stat.S_IXOTH)):
        if os.stat(path).st_mode & read and all(os.stat(f).st_mode & search for f in folders):
            found.append(who)
    return found


def test_other_accounts_cannot_read_the_report(shared_tmp):
    path = call(load(), "customer data")
    if path is None or not path.exists():
        return
    found = readers(path.resolve(), shared_tmp.resolve())
    mode = stat.S_IMODE(os.stat(path).st_mode)
    assert not found, (
        f"the report {os.path.relpath(path, shared_tmp)} has mode {oct(mode)}: {found[0]} on the server can read the "
        "customers' data; create it with mode 0600 (tempfile.mkstemp does) or in a 0700 folder")


@pytest.fixture
def frozen(monkeypatch):
    monkeypatch.setattr(time, "time", lambda: 1_700_000_000.0)
    monkeypatch.setattr(time, "time_ns", lambda: 1_700_000_000_000_000_000)
    monkeypatch.setattr(os, "getpid", lambda: 4242)


def test_name_cannot_be_guessed_in_advance(shared_tmp, frozen):
    """With the clock and pid fixed, a name built from them repeats: another account can
    plant a symlink there first and have the report written through it."""
    victim = shared_tmp.parent / "victim.txt"
    victim.write_text("original")
    mod = load()
    first = call(mod, "one")
    if first is None:
        return
    first.unlink(missing_ok=True)
    os.symlink(victim, first)  # the attacker's link at the name just used
    call(mod, "two")
    assert victim.read_text() == "original", (
        "save_report wrote through a symlink planted at a guessable name (insecure temp file); "
        "use tempfile.mkstemp or NamedTemporaryFile")


def test_name_does_not_repeat_after_a_restart(shared_tmp, frozen):
    """The first name of a fresh process must not be known in advance (clock and pid fixed)."""
    firsts = []
    for _ in range(2):
        sys.modules.pop("reports", None)
        path = call(load(), "x")
        if path is None:
            return
        # the whole path: a fixed name in a fresh private folder is fine
        firsts.append(os.path.relpath(path, shared_tmp))
        path.unlink(missing_ok=True)
    sys.modules.pop("reports", None)
    assert firsts[0] != firsts[1], (
        f"after a restart save_report used the same name {firsts[0]!r} again: another account can "
        "plant a symlink there in advance (insecure temp file); use tempfile.mkstemp")


def test_a_report_folder_planted_by_another_account_is_not_used(shared_tmp, frozen, tmp_path):
    """Another account can create our folder's name in the shared temp dir before we do: a
    fixed folder used when it already exists puts the reports in a folder that account owns
    (it can list, swap or delete them). Here the planted name is a link to its own folder."""
    sys.modules.pop("reports", None)
    first = call(load(), "one")
    if first is None or not first.exists():
        return
    relative = first.resolve().relative_to(shared_tmp.resolve())
    if len(relative.parts) < 2:
        return  # a file directly in the temp dir: its name and mode are judged above
    ours = shared_tmp / relative.parts[0]
    shutil.rmtree(ours)
    theirs = tmp_path / "other-account"
    theirs.mkdir()
    os.symlink(theirs, ours)  # planted before the next run
    sys.modules.pop("reports", None)
    try:
        call(load(), "two")
    finally:
        sys.modules.pop("reports", None)
    planted = sorted(p.name for p in theirs.rglob("*"))
    assert not planted, (
        f"save_report wrote {planted} into {relative.parts[0]!r}, a folder another account created first (a "
        "fixed folder name in the shared temp dir); create a new private folder (tempfile.mkdtemp) or "
        "write with tempfile.mkstemp")
