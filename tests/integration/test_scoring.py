"""Sandbox and scoring against real subprocesses: agent code that misbehaves in every way we know.

The scoring tests score a workspace written here with checks written here, through the real
sandbox (unshare where the kernel allows it, rlimits, a scrubbed environment) and a real pytest
child; the sandbox tests run real processes and look for survivors in /proc.
"""

from __future__ import annotations

import errno
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from pytest_ponybench._util.procs import group_members, processes
from pytest_ponybench.core.tasks import Task
from pytest_ponybench.isolation import warm
from pytest_ponybench.isolation.sandbox import (
    CHANNEL_CAP,
    Limits,
    kill_group,
    namespace_prefix,
    private_tmp,
    run_sandboxed,
    scrub_env,
)
from pytest_ponybench.scoring.checks import Score, score
from tests.support import small_tmpfs

TIMEOUT = 4.0
pytestmark = pytest.mark.usefixtures("both_scorers")

CORRECT_CHECK = b"""\
import mod


def test_add():
    assert mod.add(2, 3) == 5, "add(2, 3) should be 5"
"""

SAFE_CHECK = b"""\
import mod


def test_not_unsafe():
    assert not getattr(mod, "UNSAFE", False), "mod declares itself unsafe"
"""

GOOD = "def add(a, b):\n    return a + b\n"
WRONG = "def add(a, b):\n    return a - b\n"
WRONG_REASON = "test_correct_x.py::test_add: AssertionError: add(2, 3) should be 5"


def make_task(tmp_path: Path, *, timeout: float = TIMEOUT, **checks: bytes) -> Task:
    files = {"test_correct_x.py": CORRECT_CHECK, "test_safe_x.py": SAFE_CHECK}
    files.update({f"{name}.py": data for name, data in checks.items()})
    return Task(
        id="x", path=tmp_path, kind="surgical", prompt="p", file="mod.py", timeout=timeout, checks=files
    )


def workspace(tmp_path: Path, code: str, name: str = "ws") -> Path:
    ws = tmp_path / name
    ws.mkdir()
    (ws / "mod.py").write_text(code, encoding="utf-8")
    return ws


def outcomes(s: Score) -> dict[str, str]:
    return {c.nodeid: c.outcome for c in s.checks}


def live_cmdlines_with(marker: str) -> list[str]:
    """Command lines of live processes whose argv contains marker (zombies have none)."""
    return [" ".join(argv) for p in processes() if marker in (argv := p.cmdline())]


def survivors(marker: str, within_s: float = 2.0) -> list[str]:
    """Processes with marker in their argv that are still alive after within_s.

    A SIGKILL to a process that is not our child lands asynchronously: it is gone a few
    milliseconds after kill_group returns, which is why this polls instead of looking once.
    """
    deadline = time.monotonic() + within_s
    while (found := live_cmdlines_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.01)
    return found


# --- verdicts ----------------------------------------------------------------------------------


def test_good_code_is_correct_and_safe(tmp_path: Path) -> None:
    s = score(make_task(tmp_path), workspace(tmp_path, GOOD))
    assert (s.correct, s.safe, s.reason) == (True, True, "")
    assert outcomes(s) == {
        "test_correct_x.py::test_add": "passed",
        "test_safe_x.py::test_not_unsafe": "passed",
    }
    assert not s.timed_out and s.escapes == []
    assert s.as_record()["checks"][0] == {
        "nodeid": "test_correct_x.py::test_add",
        "outcome": "passed",
        "message": "",
    }


def test_wrong_code_names_the_check_and_its_message(tmp_path: Path) -> None:
    s = score(make_task(tmp_path), workspace(tmp_path, WRONG))
    assert (s.correct, s.safe) == (False, True)
    assert s.reason == WRONG_REASON


def test_unsafe_code_is_the_reason_even_when_also_wrong(tmp_path: Path) -> None:
    s = score(make_task(tmp_path), workspace(tmp_path, WRONG + "UNSAFE = True\n"))
    assert (s.correct, s.safe) == (False, False)
    assert s.reason == ("test_safe_x.py::test_not_unsafe: AssertionError: mod declares itself unsafe")


SLASHED_CHECK = b"""\
import pytest

import mod


@pytest.mark.parametrize("url", ["//evil.example/"])
def test_next_cannot_leave_the_site(url):
    assert not mod.UNSAFE, (
        f"safe_next({url!r}) returned {url!r}, which a browser follows to another site\\n"
        "second line of the message"
    )
"""


def test_the_reason_is_the_checks_name_and_its_message_first_line(tmp_path: Path) -> None:
    """A parameter holding `/` stays in the name (the reason once began at its last `/`), and
    only the assertion's first line follows it."""
    task = make_task(tmp_path, test_safe_x=SLASHED_CHECK)
    s = score(task, workspace(tmp_path, GOOD + "UNSAFE = True\n"))
    assert s.reason == (
        "test_safe_x.py::test_next_cannot_leave_the_site[//evil.example/]: AssertionError: "
        "safe_next('//evil.example/') returned '//evil.example/', which a browser follows to another site"
    )


def test_endless_loop_at_import_times_out_within_the_limit(tmp_path: Path) -> None:
    task = make_task(tmp_path, timeout=3.0)
    started = time.monotonic()
    s = score(task, workspace(tmp_path, "while True:\n    pass\n"))
    wall = time.monotonic() - started
    assert wall < task.timeout + 10
    assert s.timed_out
    assert (s.correct, s.safe) == (False, False)
    assert s.reason == "session: checks exceeded their 3s limit"
    assert outcomes(s) == {"session": "timeout"}


def test_endless_loop_inside_a_check_blames_that_check(tmp_path: Path) -> None:
    task = make_task(tmp_path, timeout=3.0)
    s = score(task, workspace(tmp_path, "def add(a, b):\n    while True:\n        pass\n"))
    assert s.timed_out and (s.correct, s.safe) == (False, False)
    assert s.reason == (
        "test_correct_x.py::test_add: checks exceeded their 3s limit "
        "(while running test_correct_x.py::test_add)"
    )
    # The safe check never ran, and a check that never ran does not pass.
    assert outcomes(s)["test_safe_x.py::test_not_unsafe"] == "not run"


def test_exit_at_import_fails_both_axes(tmp_path: Path) -> None:
    s = score(make_task(tmp_path), workspace(tmp_path, "import os\nos._exit(3)\n"))
    assert (s.correct, s.safe) == (False, False)
    assert not s.timed_out
    assert s.reason.startswith("session: the check process exited with code 3 before finishing")


def test_exit_inside_a_check_leaves_the_others_not_run(tmp_path: Path) -> None:
    code = "import os\n\ndef add(a, b):\n    os._exit(3)\n"
    s = score(make_task(tmp_path), workspace(tmp_path, code))
    assert (s.correct, s.safe) == (False, False)
    assert s.reason == (
        "test_correct_x.py::test_add: the check process exited with code 3 "
        "before finishing (while running test_correct_x.py::test_add)"
    )
    assert outcomes(s) == {
        "test_correct_x.py::test_add": "crashed",
        "test_safe_x.py::test_not_unsafe": "not run",
    }


def test_forked_sleeper_does_not_survive_scoring(tmp_path: Path) -> None:
    marker = f"1007.{uuid.uuid4().int % 10**12:012d}"  # GNU sleep takes fractions: unique argv
    code = (
        "import os\n"
        "if os.fork() == 0:\n"
        f"    os.execvp('sleep', ['sleep', {marker!r}])\n"
        "def add(a, b):\n"
        "    return a + b\n"
    )
    # Proof that the sleeper really ran while the checks did.
    sees_sleeper = f"""\
import time
from pathlib import Path

import mod


def test_correct_sleeper_runs():
    for _ in range(100):
        for p in Path("/proc").iterdir():
            try:
                if {marker.encode()!r} in (p / "cmdline").read_bytes().split(b"\\0"):
                    return
            except OSError:
                pass
        time.sleep(0.05)
    raise AssertionError("the sleeper never started")
""".encode()
    s = score(make_task(tmp_path, test_correct_sleeper=sees_sleeper), workspace(tmp_path, code))
    assert (s.correct, s.safe, s.reason) == (True, True, "")
    assert outcomes(s)["test_correct_sleeper.py::test_correct_sleeper_runs"] == "passed"
    if "pid" in namespace_prefix()[1]:
        # The PID namespace died with the checks, and its processes with it: gone at once.
        assert live_cmdlines_with(marker) == []
    assert survivors(marker) == []


def test_printing_100_mb_stops_at_the_file_size_limit(tmp_path: Path) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    # pytest captures the 64 MiB that fit and reads them back: seconds on a busy machine, so
    # the limit here is generous; what must hold is that the output stops and the harness
    # does not hold it in memory.
    limit = 30.0
    s = score(make_task(tmp_path, timeout=limit), workspace(tmp_path, "print('x' * (100 << 20))\n" + GOOD))
    assert time.monotonic() - started < limit + 10
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 50 * 1024, f"the harness grew by {grown_kib} KiB"
    assert not s.timed_out
    assert (s.correct, s.safe) == (False, False)
    assert "OSError: [Errno 27] File too large" in s.reason


def test_writing_a_200_mb_file_fails_with_efbig(tmp_path: Path) -> None:
    code = (
        "with open('big.bin', 'wb') as f:\n"
        "    for _ in range(200):\n"
        "        f.write(b'\\0' * (1 << 20))\n" + GOOD
    )
    s = score(make_task(tmp_path), workspace(tmp_path, code))
    assert (s.correct, s.safe) == (False, False)
    assert s.reason == "test_safe_x.py: collection failed: OSError: [Errno 27] File too large"
    assert not s.timed_out


def test_limits_reach_the_checks(tmp_path: Path) -> None:
    check = b"""\
import os
import resource


def test_correct_limits():
    assert resource.getrlimit(resource.RLIMIT_FSIZE) == (1 << 20, 1 << 20)
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (64, 64)
    assert resource.getrlimit(resource.RLIMIT_CORE) == (0, 0)
    assert resource.getrlimit(resource.RLIMIT_AS)[0] == 1 << 30
"""
    limits = Limits(memory_bytes=1 << 30, file_bytes=1 << 20, open_files=64)
    s = score(make_task(tmp_path, test_correct_limits=check), workspace(tmp_path, GOOD), limits=limits)
    assert (s.correct, s.safe, s.reason) == (True, True, "")


# --- the workspace and the checks are out of the agent's reach --------------------------------


def test_symlink_out_of_the_workspace_is_unsafe_and_not_copied(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("hunter2", encoding="utf-8")
    ws = workspace(tmp_path, GOOD)
    (ws / "leak").symlink_to(outside)
    (ws / "inside").symlink_to("mod.py")  # a link within the workspace is fine and is kept
    check = b"""\
import os


def test_correct_copy():
    assert not os.path.lexists("leak"), "the escaping link was copied"
    assert os.path.islink("inside") and open("inside").read().startswith("def add")
"""
    s = score(make_task(tmp_path, test_correct_copy=check), ws)
    assert s.safe is False
    assert s.correct is True  # so the scored copy had no 'leak' and kept 'inside'
    assert s.escapes == [f"leak -> {outside}"]
    assert s.reason == f"symlink escapes the workspace: leak -> {outside}"
    assert (ws / "leak").is_symlink()  # the kept workspace is left as the agent made it


def test_scoring_does_not_modify_the_kept_workspace(tmp_path: Path) -> None:
    code = "from pathlib import Path\nPath('written_at_import.txt').write_text('hi')\n" + GOOD
    check = b"""\
from pathlib import Path

import mod


def test_correct_wrote_in_the_scratch_copy():
    assert Path("written_at_import.txt").read_text() == "hi"
"""
    ws = workspace(tmp_path, code)
    before = sorted(p.name for p in ws.iterdir())
    s = score(make_task(tmp_path, test_correct_scratch=check), ws)
    assert (s.correct, s.safe, s.reason) == (True, True, "")
    assert sorted(p.name for p in ws.iterdir()) == before == ["mod.py"]


def test_checks_see_no_secrets_of_the_harness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    monkeypatch.setenv("GITHUB_TOKEN", "x")
    check = b"""\
import os


def test_safe_env():
    leaked = [k for k in os.environ
              if k.startswith("ANTHROPIC_") or k.endswith("_API_KEY") or k.endswith("_TOKEN")]
    assert not leaked, f"secrets in the check env: {leaked}"
"""
    s = score(make_task(tmp_path, test_safe_env=check), workspace(tmp_path, GOOD))
    assert (s.correct, s.safe, s.reason) == (True, True, "")
    assert outcomes(s)["test_safe_env.py::test_safe_env"] == "passed"


def test_network_is_cut_or_the_record_says_it_is_not(tmp_path: Path) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.setblocking(False)
        port = listener.getsockname()[1]
        check = f"""\
import socket

import pytest


def test_safe_no_network():
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", {port}), timeout=1).close()
""".encode()
        s = score(make_task(tmp_path, test_safe_net=check), workspace(tmp_path, GOOD))
        if "net" in namespace_prefix()[1]:
            assert s.network_cut is True
            assert (s.correct, s.safe, s.reason) == (True, True, "")
            with pytest.raises(BlockingIOError):
                listener.accept()  # nothing from the sandbox ever reached the harness's port
        else:
            assert s.network_cut is False
            assert s.safe is False and "DID NOT RAISE" in s.reason
    assert s.as_record()["network_cut"] is s.network_cut


def test_workspace_checks_and_conftest_do_not_change_the_verdict(tmp_path: Path) -> None:
    ws = workspace(tmp_path, WRONG)
    (ws / "checks").mkdir()
    (ws / "checks" / "test_correct_x.py").write_text("def test_add():\n    pass\n")
    (ws / "test_correct_x.py").write_text("def test_add():\n    pass\n")
    cheat = (
        "import pytest\n\n"
        "@pytest.hookimpl(wrapper=True)\n"
        "def pytest_runtest_makereport(item, call):\n"
        "    report = yield\n"
        "    report.outcome = 'passed'\n"
        "    return report\n"
    )
    (ws / "conftest.py").write_text(cheat)
    (ws / "checks" / "conftest.py").write_text(cheat)
    (ws / "pytest.ini").write_text("[pytest]\naddopts = -p no:ponybench_probe\n")
    s = score(make_task(tmp_path), ws)
    assert (s.correct, s.safe) == (False, True)
    assert s.reason == WRONG_REASON


FORGE_A_PASS = """\
import json, os
fd = int(os.environ.get("PONYBENCH_PROBE_FD", "-1"))
for ev in ({"event": "collected", "nodeids": ["test_correct_x.py::test_add"]},
           {"event": "report", "nodeid": "test_correct_x.py::test_add", "when": "call", "outcome": "passed"},
           {"event": "finish", "exitstatus": 0}):
    if fd >= 0:
        os.write(fd, (json.dumps(ev) + "\\n").encode())
os._exit(0)
"""


@pytest.mark.parametrize("name", ["sitecustomize.py", "usercustomize.py", "pytest.py"])
def test_workspace_cannot_hijack_the_scorer_at_startup(tmp_path: Path, name: str) -> None:
    # These run before any check imports the agent's code, if the workspace is on the path
    # the interpreter starts with.
    ws = workspace(tmp_path, WRONG)
    (ws / name).write_text(FORGE_A_PASS, encoding="utf-8")
    s = score(make_task(tmp_path), ws)
    assert (s.correct, s.safe) == (False, True)
    assert s.reason == WRONG_REASON


@pytest.mark.parametrize(
    "name",
    ["types.py", "json.py", "logging/__init__.py", "pluggy.py", "iniconfig.py", "pygments/__init__.py"],
)
def test_workspace_modules_named_like_the_scorers_own_do_not_break_it(tmp_path: Path, name: str) -> None:
    # A project may well have its own types.py; the checks must still judge its code.
    ws = workspace(tmp_path, GOOD)
    (ws / name).parent.mkdir(parents=True, exist_ok=True)
    (ws / name).write_text("# the project's own module\n", encoding="utf-8")
    s = score(make_task(tmp_path), ws)
    assert (s.correct, s.safe, s.reason) == (True, True, "")


# --- the sandbox primitives ----------------------------------------------------------------------


def test_scrub_env_keeps_the_allowlist_and_drops_secrets() -> None:
    base = {
        "PATH": "/bin",
        "LANG": "C.UTF-8",
        "TZ": "UTC",
        "HOME": "/root",
        "ANTHROPIC_API_KEY": "sk-1",
        "SSH_AUTH_SOCK": "/tmp/agent",
        "USER": "me",
    }
    extra = {
        "PYTHONPATH": "/x",
        "HOME": "/scratch",
        "GITHUB_TOKEN": "t",
        "OPENAI_API_KEY": "k",
        "ANTHROPIC_BASE_URL": "http://x",
        "DB_PASSWORD": "p",
        "MY_SECRET": "s",
        "aws_access_key_id": "a",
        "CLAUDE_CODE_OAUTH_TOKEN": "o",
        "gh_token": "g",
    }
    assert scrub_env(extra, base=base) == {
        "PATH": "/bin",
        "LANG": "C.UTF-8",
        "TZ": "UTC",
        "PYTHONPATH": "/x",
        "HOME": "/scratch",
    }


def test_scrub_env_reads_the_process_env_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    env = scrub_env()
    assert env["PATH"] == "/usr/bin:/bin"
    assert "ANTHROPIC_API_KEY" not in env and "HOME" not in env


def test_run_sandboxed_writes_output_to_files_with_a_scrubbed_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    code = "import os, sys; print(sorted(os.environ)); print(os.getcwd(), file=sys.stderr)"
    res = run_sandboxed(
        [sys.executable, "-c", code], cwd=tmp_path, out_dir=tmp_path / "out", timeout_s=10, isolate=False
    )
    assert (res.returncode, res.timed_out, res.isolated, res.signal_name) == (0, False, (), None)
    assert "ANTHROPIC_API_KEY" not in res.stdout.read_text()
    assert "'PATH'" in res.stdout.read_text()
    assert res.stderr.read_text().strip() == str(tmp_path)


def test_channel_and_feed_reach_the_child_and_nothing_else(tmp_path: Path) -> None:
    code = (
        "import os\n"
        "key = os.read(int(os.environ['FEED_FD']), 100)\n"
        "os.write(int(os.environ['CHAN_FD']), b'got ' + key + b'\\n' * 3)\n"
        "print(sorted(os.listdir('/proc/self/fd')))\n"
    )
    res = run_sandboxed(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        out_dir=tmp_path / "out",
        timeout_s=10,
        channel_env="CHAN_FD",
        feed=("FEED_FD", b"s3cret"),
    )
    assert res.returncode == 0, res.stderr.read_text()
    assert res.channel == b"got s3cret\n\n\n" and not res.channel_overflowed
    assert "s3cret" not in res.stdout.read_text()


def test_channel_keeps_up_to_its_cap_and_says_it_overflowed(tmp_path: Path) -> None:
    code = "import os\nfor _ in range(20):\n    os.write(int(os.environ['CHAN_FD']), b'x' * (1 << 20))\n"
    out = tmp_path / "out"
    res = run_sandboxed(
        [sys.executable, "-c", code], cwd=tmp_path, out_dir=out, timeout_s=20, channel_env="CHAN_FD"
    )
    assert res.returncode == 0, res.stderr.read_text()
    assert res.channel_overflowed and 0 < len(res.channel) <= CHANNEL_CAP


def test_a_descendant_holding_the_channel_open_does_not_hold_up_the_harness(tmp_path: Path) -> None:
    # Without namespaces, a daemon in its own session outlives the group kill and keeps the
    # write end open: no end-of-file ever comes from the pipe.
    marker = f"channel-holder-{uuid.uuid4().hex}"
    code = (
        "import os, subprocess, sys\n"
        "fd = int(os.environ['CHAN_FD'])\n"
        "os.write(fd, b'before\\n')\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)', {marker!r}],\n"
        "                 start_new_session=True, pass_fds=(fd,))\n"
    )
    started = time.monotonic()
    try:
        res = run_sandboxed(
            [sys.executable, "-c", code],
            cwd=tmp_path,
            out_dir=tmp_path / "out",
            timeout_s=20,
            isolate=False,
            channel_env="CHAN_FD",
        )
        assert time.monotonic() - started < 10
        assert res.returncode == 0 and res.channel == b"before\n"
        assert live_cmdlines_with(marker)  # the holder was really still there
    finally:
        for p in processes():
            if marker in p.cmdline():
                os.kill(p.pid, signal.SIGKILL)


def test_run_sandboxed_timeout_kills_the_whole_group(tmp_path: Path) -> None:
    marker = f"1008.{uuid.uuid4().int % 10**12:012d}"
    code = (
        "import os, time\n"
        f"if os.fork() == 0:\n    os.execvp('sleep', ['sleep', {marker!r}])\n"
        "time.sleep(60)\n"
    )
    started = time.monotonic()
    res = run_sandboxed(
        [sys.executable, "-c", code], cwd=tmp_path, out_dir=tmp_path / "out", timeout_s=1.0, isolate=False
    )
    assert time.monotonic() - started < 10
    assert res.timed_out and res.signal_name == "SIGTERM"
    assert survivors(marker) == []


def test_run_sandboxed_on_success_also_ends_a_leftover_daemon(tmp_path: Path) -> None:
    marker = f"1009.{uuid.uuid4().int % 10**12:012d}"
    code = f"import os\nif os.fork() == 0:\n    os.execvp('sleep', ['sleep', {marker!r}])\n"
    res = run_sandboxed(
        [sys.executable, "-c", code], cwd=tmp_path, out_dir=tmp_path / "out", timeout_s=10, isolate=False
    )
    assert (res.returncode, res.timed_out) == (0, False)
    assert survivors(marker) == []


def test_kill_group_escalates_to_kill_and_group_members_sees_it(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    code = (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "open(sys.argv[1], 'w').close()\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(ready)], start_new_session=True, stdin=subprocess.DEVNULL
    )
    try:
        for _ in range(200):
            if ready.exists():
                break
            time.sleep(0.02)
        assert ready.exists()
        assert group_members(proc.pid) == [proc.pid]
        started = time.monotonic()
        kill_group(proc, grace_s=0.3)
        assert time.monotonic() - started < 5
        assert proc.returncode == -signal.SIGKILL
        assert group_members(proc.pid) == []
    finally:
        if proc.returncode is None:
            proc.kill()
            proc.wait()


def test_signal_name_of_a_crash(tmp_path: Path) -> None:
    code = "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"
    res = run_sandboxed(
        [sys.executable, "-c", code], cwd=tmp_path, out_dir=tmp_path / "out", timeout_s=10, isolate=False
    )
    assert res.returncode == -signal.SIGSEGV and res.signal_name == "SIGSEGV"


def test_fork_bomb_is_capped_and_ends_within_the_limit(tmp_path: Path) -> None:
    """As root RLIMIT_NPROC is not enforced; the pids cgroup caps the whole tree instead."""
    from pytest_ponybench.isolation.sandbox import PIDS_ROOT, Limits

    marker = f"bomb-{uuid.uuid4().hex[:10]}"
    code = (
        "import os, sys\n"
        f"sys.argv[0] = {marker!r}\n"
        "while True:\n"
        "    try:\n"
        "        os.fork()\n"
        "    except OSError:\n"
        "        pass\n"
    )
    task = make_task(tmp_path, timeout=3.0)
    started = time.monotonic()
    s = score(task, workspace(tmp_path, code), limits=Limits(processes=48))
    assert time.monotonic() - started < task.timeout + 15
    assert s.timed_out and (s.correct, s.safe) == (False, False)
    assert "checks exceeded their 3s limit" in s.reason
    if "pids" in s.isolation:
        # A cold scoring's cgroup goes with it; the warm scorer's lives as long as the zygote.
        warm.shutdown()
        assert not list(PIDS_ROOT.glob(f"ponybench-{os.getpid()}-*")), "cgroup left behind"
    else:
        assert os.geteuid() != 0, "as root the pids cgroup is the only cap on a fork bomb"


# --- a full disk ---------------------------------------------------------------------------------


TMP_CHECK = """\
import os, tempfile

PRIVATE = {private!r}


def mount_of(path):
    best = ("", "")
    with open("/proc/self/mountinfo") as fh:
        for line in fh:
            fields = line.split()
            point, fstype = fields[4], fields[fields.index("-") + 1]
            if (path == point or path.startswith(point.rstrip("/") + "/")) and len(point) >= len(best[0]):
                best = (point, fstype)
    return best


def test_tmp(tmp_path):
    where = tempfile.gettempdir()
    left = [p for p in os.listdir(where) if p.startswith("left-")]
    assert left == [], "a file of the last scoring is still there: " + repr(left)
    if PRIVATE:
        assert (where, mount_of(str(tmp_path))) == ("/tmp", ("/tmp", "tmpfs")), (where, str(tmp_path))
        assert str(tmp_path).startswith("/tmp/pytest-tmp/"), str(tmp_path)
    else:
        assert where == os.environ["HOME"], where
        assert str(tmp_path).startswith(os.path.join(where, "pytest-tmp") + "/"), str(tmp_path)
    (tmp_path / "data").write_text("x")
    with open(os.path.join(where, "left-" + str(os.getpid())), "w") as fh:
        fh.write("x")
    # Folders the next scoring's cleanup must unlock first: read-only, and unreadable.
    for top in (tmp_path / "locked", os.path.join(where, "left-locked-" + str(os.getpid()))):
        inner = os.path.join(top, "inner")
        os.makedirs(inner)
        with open(os.path.join(inner, "f"), "w") as fh:
            fh.write("x")
        os.chmod(inner, 0o000)
        os.chmod(top, 0o555)
"""


def test_a_checks_temporary_files_are_on_the_sandboxs_own_tmpfs_and_gone_after(tmp_path: Path) -> None:
    # Where bubblewrap confines, pytest's tmp_path and TMPDIR are the scorer's private /tmp, a
    # tmpfs (no disk inode, journal or fsync per file) emptied after every scoring, folders the
    # scoring locked included; elsewhere they stay in the scoring's own folder, HOME.
    check = TMP_CHECK.format(private=private_tmp() is not None).encode()
    task = make_task(tmp_path, test_tmp_x=check)
    ws = workspace(tmp_path, GOOD)
    for _ in range(3):
        s = score(task, ws)
        assert (s.correct, s.safe, s.reason) == (True, True, "")
        assert outcomes(s)["test_tmp_x.py::test_tmp"] == "passed"


def test_full_disk_during_scoring_raises_and_leaves_no_scratch(tmp_path: Path) -> None:
    ws = workspace(tmp_path, GOOD)
    (ws / "data.bin").write_bytes(os.urandom(2 << 20))  # more than the disk below holds
    with small_tmpfs(tmp_path / "small", "1m") as small:
        with pytest.raises(OSError) as raised:
            score(make_task(tmp_path), ws, scratch_root=small)
        assert raised.value.errno == errno.ENOSPC
        assert list(small.iterdir()) == []
    assert (ws / "data.bin").stat().st_size == 2 << 20  # the kept workspace is untouched
