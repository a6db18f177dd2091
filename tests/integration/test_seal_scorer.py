"""The code under test, confined while it is scored: a correct and safe module whose import tries
to reach the host from inside the checks' process, through the warm scorer and the cold one.

Every target is a scratch copy made for the test (another task's checks, a user's credentials,
a run dir, a process holding a secret in its environment) whose path the module knows, as a
leaked path would tell it. The module records what it could do; a check of the task asserts
that nothing reached the host, so the scoring's verdict stays "correct, safe" exactly when the
confinement holds, and a hole turns it into a failure that names the attack.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from pytest_ponybench.core.tasks import Task
from pytest_ponybench.isolation import confine, sandbox, warm
from pytest_ponybench.scoring.checks import score
from tests.support import REPO

pytestmark = pytest.mark.usefixtures("both_scorers")

ATTACK = """\
import ctypes, errno, json, os

TARGETS = json.loads({targets!r})
found = {{}}


def attempt(name, action):
    try:
        found[name] = "reached: " + str(action())[:80]
    except Exception as exc:
        found[name] = "refused: " + type(exc).__name__


def write(path):
    with open(path, "w") as fh:
        fh.write("planted by the code under test\\n")
    return path


attempt("other task's checks", lambda: open(TARGETS["checks"]).read())
attempt("user's credentials", lambda: open(TARGETS["credentials"]).read())
attempt("run dir", lambda: open(TARGETS["records"]).read())
attempt("another process's environ", lambda: open(f"/proc/{{TARGETS['pid']}}/environ", "rb").read())
attempt("any environ with the secret", lambda: [p for p in os.listdir("/proc") if p.isdigit()
        and b"AWS_SECRET" in open(f"/proc/{{p}}/environ", "rb").read()] or 1 / 0)
attempt("write into site-packages", lambda: write(TARGETS["site"] + "/planted.pth"))
attempt("write into _pytest", lambda: write(TARGETS["pytest_pkg"] + "/planted.py"))
attempt("write the shared /dev/shm", lambda: open(TARGETS["shm_seen"]).read())
write("/dev/shm/" + TARGETS["shm_name"])  # private: the next scoring must not see it
attempt("/etc/shadow", lambda: open("/etc/shadow").read())
libc = ctypes.CDLL(None, use_errno=True)
status = open("/proc/self/status").read()
found["CapEff"] = next(l.split()[1] for l in status.splitlines() if l.startswith("CapEff"))


def find_user(conn, name):
    row = conn.execute("SELECT id, name FROM users WHERE name = ?", (name,)).fetchone()
    return row
"""

CORRECT = b"""\
import sqlite3


def test_correct_finds_a_user():
    import mod

    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE users (id INTEGER, name TEXT)")
    conn.execute("INSERT INTO users VALUES (1, 'ann')")
    assert mod.find_user(conn, "ann") == (1, "ann")
"""

SAFE = b"""\
def test_safe_nothing_reached_the_host():
    import mod

    reached = {k: v for k, v in mod.found.items() if k != "CapEff" and not v.startswith("refused")}
    assert not reached, f"the code under test reached the host: {reached}"
    assert mod.found["CapEff"] == "0000000000000000", mod.found["CapEff"]
"""


def hashes(*roots: Path) -> dict[str, str]:
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest()
        for root in roots
        for p in sorted(root.rglob("*") if root.is_dir() else [root])
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_the_code_under_test_reaches_nothing_of_the_host(tmp_path: Path) -> None:
    if sandbox.jail().kind != "bwrap":
        pytest.skip(f"the scorer is not confined here: {confine.status().reason}")
    checks = tmp_path / "tasks" / "sql_lookup"
    shutil.copytree(REPO / "benchmarks" / "tasks" / "sql_lookup", checks)
    creds = tmp_path / "userhome" / ".claude" / ".credentials.json"
    creds.parent.mkdir(parents=True)
    creds.write_text('{"claudeAiOauth": {"accessToken": "fake-token-for-tests"}}\n')
    records = tmp_path / "runs" / "20260101-000000" / "results.jsonl"
    records.parent.mkdir(parents=True)
    records.write_text('{"task": "x"}\n')
    site = sandbox.python_install()[0][0]
    pytest_pkg = str(Path(pytest.__file__).parent.parent / "_pytest")
    holder = subprocess.Popen(
        ["sleep", "120"], env={"PATH": "/usr/bin:/bin", "AWS_SECRET_ACCESS_KEY": "fake-secret-for-tests"}
    )
    shm_name = f"ponybench-test-{uuid.uuid4().hex}"
    try:
        before = hashes(checks, creds.parent, records.parent, Path(site) / "_pytest", Path(site) / "pytest")
        site_listing = sorted(os.listdir(site))
        verdicts = []
        for attempt in range(2):  # the second scoring must not see what the first left in /dev/shm
            targets = {
                "checks": str(checks / "checks" / "test_safe.py"),
                "credentials": str(creds),
                "records": str(records),
                "pid": holder.pid,
                "site": site,
                "pytest_pkg": pytest_pkg,
                "shm_name": f"{shm_name}-{attempt}",
                "shm_seen": f"/dev/shm/{shm_name}-0",
            }
            ws = tmp_path / f"ws{attempt}"
            ws.mkdir()
            (ws / "mod.py").write_text(ATTACK.format(targets=json.dumps(targets)))
            task = Task(
                id="x",
                path=tmp_path,
                kind="surgical",
                prompt="p",
                file="mod.py",
                timeout=60,
                checks={"test_correct_x.py": CORRECT, "test_safe_x.py": SAFE},
            )
            verdicts.append(score(task, ws))
        for s in verdicts:
            # The verdict is that of the code's own behaviour: correct, and safe because nothing
            # reached the host (a hole would fail the safety check with the attack's name).
            assert (s.correct, s.safe, s.reason) == (True, True, ""), s.reason
            assert {"fs", "net", "pid", "nocaps"} <= set(s.isolation), s.isolation
        assert (
            hashes(checks, creds.parent, records.parent, Path(site) / "_pytest", Path(site) / "pytest")
            == before
        )
        assert sorted(os.listdir(site)) == site_listing
        assert not list(Path("/dev/shm").glob(f"{shm_name}*"))  # never the host's /dev/shm
    finally:
        holder.kill()
        holder.wait()


def test_the_scorer_python_starts_isolated(tmp_path: Path) -> None:
    """No .pth file, sitecustomize or PYTHON* variable reaches the checks' interpreter."""
    report = b"""\
import sys


def test_correct_flags():
    assert sys.flags.isolated == 1 and sys.flags.no_site == 1, sys.flags
    assert "site" not in sys.modules or not hasattr(sys.modules["site"], "ENABLE_USER_SITE")
"""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "mod.py").write_text("x = 1\n")
    task = Task(
        id="x",
        path=tmp_path,
        kind="surgical",
        prompt="p",
        file="mod.py",
        timeout=60,
        checks={"test_correct_flags.py": report},
    )
    s = score(task, ws)
    assert (s.correct, s.reason) == (True, ""), s.reason
    assert sys.flags.isolated == 0  # the harness itself is an ordinary python


def test_the_same_module_unconfined_reaches_the_copies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: where the scorer cannot be confined, the same import reaches the scratch
    copies (write targets here are scratch folders, never the real site-packages)."""
    monkeypatch.setenv(confine.BWRAP_ENV, "/nonexistent/bwrap")
    confine.status.cache_clear()
    warm.shutdown()  # a warm scorer started confined earlier in this process would serve it
    try:
        creds = tmp_path / "userhome" / ".claude" / ".credentials.json"
        creds.parent.mkdir(parents=True)
        creds.write_text('{"token": "fake-token-for-tests"}\n')
        fake_site = tmp_path / "fake-site"
        (fake_site / "_pytest").mkdir(parents=True)
        targets = {
            "checks": str(creds),
            "credentials": str(creds),
            "records": str(creds),
            "pid": os.getpid(),
            "site": str(fake_site),
            "pytest_pkg": str(fake_site / "_pytest"),
            "shm_name": f"ponybench-test-{uuid.uuid4().hex}",
            "shm_seen": "/nonexistent",
        }
        ws = tmp_path / "ws"
        ws.mkdir()
        (ws / "mod.py").write_text(ATTACK.format(targets=json.dumps(targets)))
        task = Task(
            id="x",
            path=tmp_path,
            kind="surgical",
            prompt="p",
            file="mod.py",
            timeout=60,
            checks={"test_correct_x.py": CORRECT, "test_safe_x.py": SAFE},
        )
        s = score(task, ws)
        assert s.correct and not s.safe
        assert "the code under test reached the host" in s.reason and "credentials" in s.reason, s.reason
        assert (fake_site / "planted.pth").is_file()
    finally:
        for leftover in Path("/dev/shm").glob(f"{targets['shm_name']}*"):
            leftover.unlink()
        monkeypatch.undo()
        confine.status.cache_clear()
        warm.shutdown()
