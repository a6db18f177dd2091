"""The warm scorer: a process with pytest imported that forks a fresh sandboxed child per
scoring. Its children must start exactly as the cold path's, cost less, and leave nothing
behind; when it cannot serve, the cold path does.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pytest_ponybench._util import procs
from pytest_ponybench.isolation import sandbox, scratch, warm
from pytest_ponybench.isolation.sandbox import run_sandboxed, scrub_env
from tests.support import tagged_processes

# What a check sees of its process, printed as one JSON line: the warm scorer's child must see
# exactly what the cold one does, namespaces aside (each scoring gets new ones).
ENV_REPORT = b"""\
import gc, json, os, resource, signal, sys

LIMITS = ("CPU", "AS", "FSIZE", "NOFILE", "NPROC", "CORE")
SIGNALS = ("SIGXFSZ", "SIGPIPE", "SIGINT", "SIGTERM", "SIGCHLD")


def test_report():
    info = {
        "modules": sorted(m for m in sys.modules if not m.startswith("test_")),
        "path": sys.path,
        "flags": str(sys.flags),
        "env": dict(os.environ),
        "cwd": os.getcwd(),
        "limits": [resource.getrlimit(getattr(resource, "RLIMIT_" + r)) for r in LIMITS],
        "signals": [str(signal.getsignal(getattr(signal, s))) for s in SIGNALS],
        "fds": sorted(os.listdir("/proc/self/fd")),
        "tmp": sorted(os.listdir("/tmp")),  # nothing of the zygote's warm-up session is left
        "pid_1": os.getpid() == 1,
        "gc": gc.isenabled(),
        "argv0": sys.argv[0],
        "main": getattr(sys.modules["__main__"], "__file__", None),
        "own_session": os.getsid(0) == os.getpgid(0),
        "ns": [os.readlink(f"/proc/self/ns/{n}") for n in ("net", "pid")],
    }
    print("REPORT" + json.dumps(info))
"""


def job_folder(name: str) -> Path:
    """A folder where the warm scorer sees it (as scoring.score lays out every scoring)."""
    folder = sandbox.scorer_roots()[0] / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    return folder


def test_warm_child_starts_exactly_as_the_cold_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = job_folder("env-report")
    (ws / "test_env.py").write_bytes(ENV_REPORT)
    argv = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "test_env.py"]
    env = scrub_env({"PYTHONPATH": str(ws / "probe"), "HOME": str(ws), "PYTHONDONTWRITEBYTECODE": "1"})
    seen = {}
    for mode in ("cold", "warm"):
        monkeypatch.setenv("PONYBENCH_SCORER", mode)
        run = run_sandboxed(
            argv,
            cwd=ws,
            out_dir=tmp_path / mode,
            timeout_s=60,
            env=env,
            channel_env="PONYBENCH_PROBE_FD",
            feed=("PONYBENCH_PROBE_KEY_FD", b"key"),
        )
        assert run.returncode == 0, run.stdout.read_text() + run.stderr.read_text()
        assert run.warm == (mode == "warm")
        assert run.cpu_s is not None and run.cpu_s > 0
        line = next(x for x in run.stdout.read_text().splitlines() if x.startswith("REPORT"))
        seen[mode] = json.loads(line.removeprefix("REPORT"))
        seen[mode]["isolated"] = run.isolated
    cold, hot = seen["cold"], seen["warm"]
    own = [os.readlink(f"/proc/self/ns/{n}") for n in ("net", "pid")]
    if "net" in cold["isolated"]:
        assert cold["ns"][0] != own[0] and hot["ns"][0] != own[0]
    if "pid" in cold["isolated"]:
        # Each in a PID namespace of its own; the cold child is its init, the warm one's init is
        # the zygote (which ends whatever the scoring left when it ends).
        assert cold["pid_1"] and not hot["pid_1"]
        assert cold["ns"][1] != own[1] and hot["ns"][1] != own[1]
    assert "-I" not in cold["flags"]  # flags print as names: isolated=1 is the one that matters
    assert "isolated=1" in cold["flags"] and "no_site=1" in cold["flags"]
    differ = ("ns", "pid_1")
    assert {k: v for k, v in hot.items() if k not in differ} == {
        k: v for k, v in cold.items() if k not in differ
    }


# What python's exit does after the last check: the warm child ends without the interpreter's
# teardown, and must still wait for a thread that is not a daemon, run the atexit handlers and
# flush what was printed, in that order, as the cold one does.
EXIT_REPORT = b"""\
import atexit, sys, threading, time


def test_leaves_work_for_the_exit():
    def late():
        time.sleep(0.2)
        print("THREAD done")

    threading.Thread(target=late).start()
    atexit.register(print, "ATEXIT ran")
    sys.stdout.write("UNFLUSHED tail")
"""


def test_warm_child_exits_as_the_cold_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = job_folder("exit-report")
    (ws / "test_exit.py").write_bytes(EXIT_REPORT)
    argv = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "test_exit.py"]
    env = scrub_env({"HOME": str(ws), "PYTHONDONTWRITEBYTECODE": "1"})
    seen = {}
    for mode in ("cold", "warm"):
        monkeypatch.setenv("PONYBENCH_SCORER", mode)
        run = run_sandboxed(argv, cwd=ws, out_dir=tmp_path / mode, timeout_s=60, env=env)
        assert run.warm == (mode == "warm")
        out = run.stdout.read_text()
        seen[mode] = (run.returncode, [x for x in out.splitlines() if x.startswith(("THREAD", "ATEXIT"))])
        assert "UNFLUSHED tail" in out
    assert seen["warm"] == seen["cold"] == (0, ["THREAD done", "ATEXIT ran"])


GOOD_CHECK = b"def test_ok():\n    assert 1 + 1 == 2\n"
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]


def _current() -> warm.WarmScorer:
    scorer = sandbox.warm_scorer()
    assert scorer is not None, "no warm scorer on this machine"
    return scorer


def test_a_dead_warm_scorer_costs_one_cold_scoring_then_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PONYBENCH_SCORER", "warm")
    ws = job_folder("dead")
    (ws / "test_ok.py").write_bytes(GOOD_CHECK)

    def run(name: str) -> sandbox.SandboxResult:
        done = run_sandboxed([*PYTEST, "test_ok.py"], cwd=ws, out_dir=tmp_path / name, timeout_s=60)
        assert done.returncode == 0 and "1 passed" in done.stdout.read_text()
        return done

    assert run("first").warm
    first = _current().pid
    os.kill(first, signal.SIGKILL)
    assert not run("second").warm  # the socket is dead: this one runs cold
    assert run("third").warm
    assert _current().pid != first


def test_a_moved_scratch_gets_a_warm_scorer_that_sees_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # After forget_session (TMPDIR changed), this process's scorings lie in a new folder: the
    # zygote that saw only the old one is replaced, not bypassed for the rest of the process.
    monkeypatch.setenv("PONYBENCH_SCORER", "warm")
    before = _current().pid
    scratch.forget_session()
    ws = job_folder("moved")
    (ws / "test_ok.py").write_bytes(GOOD_CHECK)
    done = run_sandboxed([*PYTEST, "test_ok.py"], cwd=ws, out_dir=tmp_path / "out", timeout_s=60)
    assert done.returncode == 0 and "1 passed" in done.stdout.read_text(), done
    assert done.warm
    assert _current().pid != before


SLOW_THE_FIRST_TIME = b"""\
import time
from pathlib import Path


def test_ok():
    marker = Path("started-once")
    if not marker.exists():  # the first scoring waits, and its warm scorer is killed meanwhile
        marker.write_text("yes")
        time.sleep(30)
    assert 1 + 1 == 2
"""


def test_a_scoring_whose_warm_scorer_dies_under_it_is_scored_again_cold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A zygote gone mid-scoring (killed, out of memory) says nothing of the code under test:
    the scoring runs again, cold, instead of being recorded as a check killed by SIGKILL."""
    monkeypatch.setenv("PONYBENCH_SCORER", "warm")
    ws = job_folder("lost")
    (ws / "test_ok.py").write_bytes(SLOW_THE_FIRST_TIME)
    zygote = _current().pid

    def kill_when_started() -> None:
        deadline = time.monotonic() + 60
        while not (ws / "started-once").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(zygote, signal.SIGKILL)

    killer = threading.Thread(target=kill_when_started)
    killer.start()
    done = run_sandboxed([*PYTEST, "test_ok.py"], cwd=ws, out_dir=tmp_path / "out", timeout_s=60)
    killer.join()
    assert done.returncode == 0 and "1 passed" in done.stdout.read_text(), done
    assert not done.warm and done.wall_s < 30  # scored again, cold, without the first one's wait
    assert _current().pid != zygote  # the next scoring gets a new zygote


SLEEPER = b"""\
import os, subprocess, time
from pathlib import Path


def test_sleeps():
    subprocess.Popen(["sleep", "300"])
    Path(os.environ["STARTED"]).write_text("yes")
    time.sleep(300)
"""

# A harness process that starts its warm scorer, notes its pid, and scores a sleeping check.
HARNESS = """\
import sys
from pathlib import Path
from pytest_ponybench.isolation import sandbox
import shutil
root, tag = Path(sys.argv[1]), sys.argv[2]
zygote = sandbox.warm_scorer()
(root / "zygote.pid").write_text(str(zygote.pid))
ws = sandbox.scorer_roots()[0] / "sleeper"
ws.mkdir()
shutil.copy(root / "test_sleeper.py", ws)
env = sandbox.scrub_env({"STARTED": str(ws / "started"), "TAG": tag})
(root / "started-at").write_text(str(ws / "started"))
argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_sleeper.py"]
sandbox.run_sandboxed(argv, cwd=ws, out_dir=root / "out", timeout_s=600, env=env)
"""


def _gone(pid: int) -> bool:
    return all(p.pid != pid or p.zombie for p in procs.processes())


def test_a_killed_harness_takes_its_warm_scorer_and_the_checks_with_it(
    tmp_path: Path, process_tag: str
) -> None:
    (tmp_path / "test_sleeper.py").write_bytes(SLEEPER)
    env = {**os.environ, "PONYBENCH_SCORER": "warm"}
    harness = subprocess.Popen([sys.executable, "-c", HARNESS, str(tmp_path), process_tag], env=env)
    try:
        deadline = time.monotonic() + 60
        while (
            not (tmp_path / "started-at").exists() or not Path((tmp_path / "started-at").read_text()).exists()
        ):
            assert harness.poll() is None and time.monotonic() < deadline, "the check never started"
            time.sleep(0.05)
        zygote = int((tmp_path / "zygote.pid").read_text())
        # The check's own environ in /proc is the warm scorer's (it was forked, not started),
        # so the tag shows on the harness and on what the check started.
        assert "sleep 300" in tagged_processes(process_tag)
    finally:
        harness.kill()
        harness.wait()
    deadline = time.monotonic() + 10
    while (tagged_processes(process_tag) or not _gone(zygote)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert tagged_processes(process_tag) == []  # the sleep died with the check's namespace
    assert _gone(zygote)
