"""One session per run dir, on the real claim and lock functions in real processes: sessions
started together never share a dir; a held dir refuses a second writer (and a reader refuses
a writer) naming the pid; the lock dies with a SIGKILLed holder; merge and report keep out of
a dir a session still writes. The same through real pytest sessions is in
tests/integration/test_rundir.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pytest_ponybench import cli
from pytest_ponybench.store import owner
from tests.support import REPO
from tests.unit._support.shards import SPEC, make_part

STAMP = "20261204-120000"  # one stamp for every racer: the worst case, sessions in one second

# A racer: waits for the go file, claims a run dir under OUT, writes its name into it, prints it.
_RACER = """
import sys, time
from pathlib import Path
from pytest_ponybench.store import owner
out, go, name, stamp = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4]
while not go.exists():
    time.sleep(0.0005)
held = owner.claim(out, "", lambda: stamp)
(held.path / ("by-" + name)).write_text(name)
print(held.path, flush=True)
"""

# A session that holds a run dir (exclusive, or shared with "shared") until it is killed.
_HOLDER = """
import sys, time
from pathlib import Path
from pytest_ponybench.store import owner
held = owner.hold(Path(sys.argv[1]), "test", shared=sys.argv[2] == "shared")
print("held", flush=True)
time.sleep(600)
"""


def _python(code: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True, env=env, cwd=REPO
    )


Holder = Callable[..., "subprocess.Popen[str]"]


@pytest.fixture
def holder() -> Iterator[Holder]:
    """Start a process holding a run dir; every one started is killed at the end."""
    started: list[subprocess.Popen[str]] = []

    def start(run_dir: Path, mode: str = "exclusive") -> subprocess.Popen[str]:
        proc = _python(_HOLDER, str(run_dir), mode)
        started.append(proc)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def test_three_sessions_claiming_at_once_never_share_a_dir(tmp_path: Path) -> None:
    for trial in range(10):
        out, go = tmp_path / f"trial-{trial}" / "runs", tmp_path / f"go-{trial}"
        racers = [_python(_RACER, str(out), str(go), f"s{i}", STAMP) for i in range(3)]
        time.sleep(0.3)  # every racer started and polling
        go.touch()
        paths = []
        for i, proc in enumerate(racers):
            stdout, _ = proc.communicate(timeout=30)
            assert proc.returncode == 0, f"trial {trial}: racer {i} failed"
            paths.append(Path(stdout.strip()))
        assert len(set(paths)) == 3, f"trial {trial}: a run dir was shared: {paths}"
        assert sorted(p.name for p in paths) == [STAMP, f"{STAMP}-2", f"{STAMP}-3"]
        for i, path in enumerate(paths):
            # Each dir holds its claimer's mark and no other's, and its lock file.
            assert sorted(p.name for p in path.iterdir()) == [owner.OWNER, f"by-s{i}"], trial


def test_a_held_run_dir_refuses_a_second_session_naming_the_pid(tmp_path: Path, holder: Holder) -> None:
    run_dir = tmp_path / "runs" / "a"
    run_dir.mkdir(parents=True)
    proc = holder(run_dir)
    for shared in (False, True):
        with pytest.raises(owner.RunDirInUse) as refused:
            owner.hold(run_dir, "--resume", shared=shared)
        said = str(refused.value)
        assert said.startswith("--resume: the run dir ") and str(run_dir) in said
        assert f"pid {proc.pid}, writing it" in said, said
    # SIGKILL: no handler runs, the lock goes with the process.
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    held = owner.hold(run_dir, "--resume")
    assert held.held
    held.release()


def test_readers_share_a_run_dir_and_keep_a_writer_out(tmp_path: Path, holder: Holder) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    reader = holder(run_dir, "shared")
    mine = owner.hold(run_dir, "ponybench merge", shared=True)  # a second reader is welcome
    mine.release()
    with pytest.raises(owner.RunDirInUse, match=f"pid {reader.pid}, reading it"):
        owner.hold(run_dir, "--resume")


def test_one_process_holding_twice_is_refused_too(tmp_path: Path) -> None:
    """An flock is per open file: a second session in the same process (pytester in-process,
    a plugin) does not slip through."""
    first = owner.hold(tmp_path, "--resume")
    try:
        with pytest.raises(owner.RunDirInUse):
            owner.hold(tmp_path, "--resume")
    finally:
        first.release()
    owner.hold(tmp_path, "--resume").release()  # released: free again


def test_a_claim_takes_the_next_free_name(tmp_path: Path) -> None:
    (tmp_path / STAMP).mkdir()
    (tmp_path / f"rescore-{STAMP}").mkdir()
    first = owner.claim(tmp_path, "", lambda: STAMP)
    again = owner.claim(tmp_path, "rescore-", lambda: STAMP)
    assert (first.path.name, again.path.name) == (f"{STAMP}-2", f"rescore-{STAMP}-2")
    first.release()
    again.release()


def _run_dir(path: Path) -> Path:
    """A finished run dir on disk (the merge tests' part)."""
    return make_part(path.parent, path.name, SPEC, None)


def test_merge_and_report_keep_out_of_a_run_dir_a_session_writes(
    tmp_path: Path, holder: Holder, capsys: pytest.CaptureFixture[str]
) -> None:
    part = _run_dir(tmp_path / "runs" / "live")
    proc = holder(part)
    out = tmp_path / "merged"
    assert cli.main(["merge", "-o", str(out), str(part)]) == cli.USAGE
    err = capsys.readouterr().err
    assert f"ponybench merge: the run dir {part} is in use" in err and f"pid {proc.pid}" in err, err
    assert not out.exists()  # refused before anything was written
    assert cli.main(["report", str(part)]) == cli.USAGE
    err = capsys.readouterr().err
    assert f"ponybench report: the run dir {part} is in use" in err, err
    assert not (part / "report.html").exists()


def test_two_merges_into_one_out_never_both_write(tmp_path: Path, holder: Holder) -> None:
    """The second merge into an out dir the first holds is refused, not interleaved with it."""
    out = tmp_path / "merged"
    out.mkdir()
    holder(out)  # the first merge, mid-write
    from pytest_ponybench.store import merge

    with pytest.raises(owner.RunDirInUse, match="ponybench merge -o: the run dir"):
        merge.merge([_run_dir(tmp_path / "part")], out)
    assert [p.name for p in out.iterdir()] == [owner.OWNER]
