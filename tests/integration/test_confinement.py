"""Confinement of the claude process (real bubblewrap), its environment, and its scratch folders."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pytest_ponybench.agents.process import run_process
from pytest_ponybench.core.arms import resolve
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.records import Record
from pytest_ponybench.core.tasks import load_tasks
from pytest_ponybench.isolation import confine, scratch, warm
from pytest_ponybench.offline.endpoint import OfflineEndpoint
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.roles.config import OPT_ALLOW_UNCONFINED
from pytest_ponybench.session.run import CellContext, run_cell
from pytest_ponybench.store.results import RunDir
from tests.support import CLAUDE, GATEWAY_TOKEN, REPO, claude_env, tagged_processes


@pytest.fixture
def unconfined(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process (and the pytest it starts) as on a machine without bubblewrap."""
    monkeypatch.setenv(confine.BWRAP_ENV, "/nonexistent/bwrap")
    confine.status.cache_clear()
    warm.shutdown()  # its warm scorer was started confined: the next one starts as the machine is
    yield
    monkeypatch.undo()
    confine.status.cache_clear()
    warm.shutdown()


def bwrap_or_skip() -> str:
    state = confine.status()
    if not state.available or state.bwrap is None:
        pytest.skip(f"confinement is not available here: {state.reason}")
    return state.bwrap


def confined_sh(
    tmp_path: Path, script: str, hide: list[Path] | None = None
) -> subprocess.CompletedProcess[str]:
    ws, home = tmp_path / "ws", tmp_path / "home"
    ws.mkdir(exist_ok=True)
    home.mkdir(exist_ok=True)
    view = confine.View(writable=(ws, home), hide=tuple(hide or ()), network=True, chdir=ws)
    argv = confine.bwrap_argv(bwrap_or_skip(), view)
    return subprocess.run(
        [*argv, "/bin/sh", "-c", script], capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
    )


def test_the_session_sees_only_its_workspace_home_and_the_system(tmp_path: Path) -> None:
    project = tmp_path / "project" / "benchmarks"
    project.mkdir(parents=True)
    (project / "test_safe.py").write_text("assert 1\n")
    host_tmp = Path(tempfile.gettempdir()) / f"ponybench-host-{uuid.uuid4().hex}"
    host_tmp.write_text("host\n")
    try:
        done = confined_sh(
            tmp_path,
            f"""
            set -u
            echo ws > {tmp_path}/ws/written && echo home > {tmp_path}/home/written || exit 11
            [ "$(pwd)" = "{tmp_path}/ws" ] || exit 12
            [ ! -e {project} ] && [ ! -e {host_tmp} ] && [ ! -e {REPO} ] || exit 13
            [ ! -e {Path.home()}/. ] || [ "{Path.home()}" = / ] || exit 14
            touch /usr/ponybench-probe 2>/dev/null && exit 15
            touch /etc/ponybench-probe 2>/dev/null && exit 16
            [ -r /etc/passwd ] || exit 17
            ls /proc | grep -c '^[0-9]'
            """,
        )
    finally:
        host_tmp.unlink()
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert int(done.stdout.split()[-1]) <= 4  # its own PID namespace: bwrap's init, sh, ls, grep
    assert (tmp_path / "ws" / "written").read_text() == "ws\n"
    assert (tmp_path / "home" / "written").read_text() == "home\n"


def test_a_path_to_hide_inside_a_system_folder_is_emptied(tmp_path: Path) -> None:
    doc = Path("/usr/share/doc")
    if not doc.is_dir() or not any(doc.iterdir()):
        pytest.skip("no /usr/share/doc to hide")
    done = confined_sh(tmp_path, f"ls -A {doc} | wc -l; ls /usr/bin | wc -l", hide=[doc])
    assert done.returncode == 0, done.stderr
    hidden, system = map(int, done.stdout.split())
    assert hidden == 0 and system > 10


def test_a_folder_holding_the_claude_install_is_never_hidden() -> None:
    install = confine.install_folder(CLAUDE or "/usr/bin/claude")
    if install is None:
        pytest.skip("no npm install of the claude CLI here")
    view = confine.View(writable=(Path("/w"), Path("/h")), readable=(install,), hide=(install.parent,))
    argv = confine.bwrap_argv("bwrap", view)
    assert str(install.parent) not in [argv[i + 1] for i, a in enumerate(argv) if a == "--tmpfs"]


@pytest.mark.needs_claude
def test_the_claude_install_folder_is_found_from_the_binary() -> None:
    assert CLAUDE is not None
    install = confine.install_folder(CLAUDE)
    real = Path(os.path.realpath(CLAUDE))
    assert install is not None and install in real.parents and (install / "package.json").is_file()


def test_a_timeout_ends_every_confined_process(tmp_path: Path, process_tag: str) -> None:
    bwrap_or_skip()
    ws, home = tmp_path / "ws", tmp_path / "home"
    ws.mkdir()
    home.mkdir()
    script = ["/bin/sh", "-c", "sleep 60 & setsid sleep 60 & sleep 60"]
    cmd, pre = confine.wrap(script, confine.View(writable=(ws, home), chdir=ws))
    env = {"PATH": "/usr/bin:/bin", "PONYBENCH_TEST_TAG": process_tag}
    out = tmp_path / "out"
    run = run_process(
        cmd, cwd=ws, env=env, stdout=out, stderr=out, timeout_s=1.0, confined=True, pass_fds=pre.pass_fds
    )
    pre.close()
    assert run.timed_out
    # The namespace's members die with its init, a moment after the group kill returns.
    deadline = time.monotonic() + 5
    while tagged_processes(process_tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert tagged_processes(process_tag) == []


def test_the_environment_is_an_allowlist_and_holds_no_credential(tmp_path: Path) -> None:
    """Offline or live, a session's only key is its own gateway token: no ANTHROPIC_* or
    CLAUDE_CODE_* variable of the harness, no proxy (the gateway is its only way out, and the
    gateway uses the harness's proxy itself), no other credential-shaped name."""
    user = tmp_path / "user"
    (user / ".claude").mkdir(parents=True)
    (user / ".claude" / ".credentials.json").write_text("{}")
    base = {
        "PATH": "/usr/bin",
        "HOME": str(user),
        "LC_ALL": "C.UTF-8",
        "HTTPS_PROXY": "http://proxy:3128",
        "NODE_EXTRA_CA_CERTS": "/etc/ssl/proxy.pem",
        "AWS_SECRET_ACCESS_KEY": "aws",
        "GITHUB_TOKEN": "gh",
        "OPENAI_API_KEY": "oa",
        "CLAUDECODE": "1",
        "CLAUDE_CODE_ENTRYPOINT": "cli",
        "ANTHROPIC_MODEL": "opus",
        "MCP_TIMEOUT": "1",
        "ANTHROPIC_API_KEY": "sk-ant-real",
        "ANTHROPIC_AUTH_TOKEN": "real-auth-token",
        "CLAUDE_CODE_OAUTH_TOKEN": "real-oauth-token",
        "CLAUDE_CODE_USE_BEDROCK": "1",
    }
    gateway = "http://127.0.0.1:8421"
    offline = claude_env(tmp_path / "h1", base_url=gateway, offline=True, base=base)
    live = claude_env(tmp_path / "h2", base_url=gateway, offline=False, base=base)
    for env in (offline, live):
        for name in ("AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "OPENAI_API_KEY", "CLAUDECODE", "MCP_TIMEOUT"):
            assert name not in env
        for name in ("CLAUDE_CODE_ENTRYPOINT", "ANTHROPIC_MODEL", "CLAUDE_CODE_USE_BEDROCK", "HTTPS_PROXY"):
            assert name not in env
        assert "NODE_EXTRA_CA_CERTS" not in env and "ANTHROPIC_AUTH_TOKEN" not in env
        assert env["LC_ALL"] == "C.UTF-8"
        assert env["ANTHROPIC_API_KEY"] == GATEWAY_TOKEN and env["ANTHROPIC_BASE_URL"] == gateway
        values = " ".join(env.values())
        assert "sk-ant-real" not in values and "real-auth-token" not in values and "real-oauth" not in values
    assert offline["CLAUDE_CODE_MAX_RETRIES"] == "0" and live["CLAUDE_CODE_MAX_RETRIES"] == "2"
    for home in ("h1", "h2"):
        assert not (tmp_path / home / ".claude" / ".credentials.json").exists()


@pytest.fixture
def own_tmpdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    scratch.forget_session()
    yield tmp_path
    scratch.forget_session()


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_scratch_is_private_and_a_killed_session_is_reaped(own_tmpdir: Path) -> None:
    base = own_tmpdir / f"ponybench-{os.getuid()}"
    base.mkdir(mode=0o755)
    stale = base / f"{dead_pid()}-0badc0de" / "cell-x" / "home" / ".claude"
    stale.mkdir(parents=True)
    (stale / ".credentials.json").write_text("{}")
    running = base / f"{os.getppid()}-0000beef"
    running.mkdir()
    session = scratch.session_dir()
    assert session.parent == base and session.name.startswith(f"{os.getpid()}-")
    assert not (base / stale.relative_to(base).parts[0]).exists()  # reaped, credentials and all
    assert running.is_dir()  # its owner still runs
    assert (base.stat().st_mode & 0o777, session.stat().st_mode & 0o777) == (0o700, 0o700)
    cell = scratch.new_cell_dir()
    assert cell.parent == session and cell.name.startswith("cell-")


def test_a_scratch_root_that_is_not_ours_is_refused(own_tmpdir: Path) -> None:
    (own_tmpdir / "elsewhere").mkdir()
    (own_tmpdir / f"ponybench-{os.getuid()}").symlink_to(own_tmpdir / "elsewhere")
    with pytest.raises(scratch.ScratchError, match="not a folder owned by"):
        scratch.session_dir()


def one_cell(tmp_path: Path, model: str, allow_unconfined: bool = False) -> tuple[Record, Path]:
    task = next(
        t for t in load_tasks(REPO / "benchmarks" / "tasks", REPO / "fixtures") if t.id == "sql_lookup"
    )
    arm = resolve({"baseline": {}}, [], [], REPO, "[tool.ponybench.arms]")[0]
    (tmp_path / "run").mkdir()
    run_dir = RunDir(tmp_path / "run")
    with OfflineServer() as server:
        ctx = CellContext(
            run_dir=run_dir,
            claude=CLAUDE or "claude",
            cell_timeout=60,
            max_turns=10,
            endpoint=OfflineEndpoint(server),
            allow_unconfined=allow_unconfined,
        )
        rec = run_cell(Cell(task, arm, model, 0), ctx)
    return rec, run_dir.cell_dir(str(rec["cell_id"])).path


@pytest.mark.needs_claude
def test_a_cell_runs_confined_and_leaves_no_scratch(tmp_path: Path, own_tmpdir: Path) -> None:
    bwrap_or_skip()
    rec, cell_dir = one_cell(tmp_path, "offline-reference")
    assert rec["confined"] is True and rec["valid"] and rec["correct"] and rec["safe"], rec
    assert rec["outside_reads"] == [] and rec["outside_writes"] == [] and rec["read_credentials"] is False
    assert (cell_dir / "workspace" / "lookup.py").is_file()
    # The workspace moved, HOME went; what stays is the session's own: the scorer's folders
    # (empty between scorings) and the confinement's passwd and group.
    session = scratch.session_dir()
    assert {p.name for p in session.iterdir()} <= {"score", "etc"}
    assert [p for p in (session / "score").rglob("*") if p.is_file()] == []


@pytest.mark.needs_claude
def test_a_paid_cell_never_starts_unconfined(tmp_path: Path, own_tmpdir: Path, unconfined: None) -> None:
    rec, cell_dir = one_cell(tmp_path, "sonnet")
    assert rec["valid"] is False and OPT_ALLOW_UNCONFINED in str(rec["error"]), rec
    assert not (cell_dir / "claude.jsonl").exists()  # claude never started: nothing was spent


@pytest.mark.needs_claude
def test_an_offline_cell_runs_unconfined_where_it_must(
    tmp_path: Path, own_tmpdir: Path, unconfined: None
) -> None:
    rec, _ = one_cell(tmp_path, "offline-reference")
    assert rec["confined"] is False and rec["valid"] and rec["correct"], rec


@pytest.mark.needs_claude
def test_a_paid_run_without_confinement_is_refused_naming_the_flag(
    pytester: pytest.Pytester,
    bench_project: Callable[..., Path],
    unconfined: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-never-used")  # refused before any request
    result = pytester.runpytest_subprocess("benchmarks", "--models", "sonnet", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()[-2000:]
    err = result.stderr.str()
    assert OPT_ALLOW_UNCONFINED in err and "cannot be confined" in err and "sonnet" in err
    assert not list((root / "runs").glob("*/results.jsonl"))  # no cell ran, nothing was spent


def test_a_script_install_runs_with_its_interpreter_visible(tmp_path: Path) -> None:
    """A user-level install: the CLI a script whose interpreter lives outside the system folders."""
    bwrap_or_skip()
    interpreter = os.path.realpath(sys.executable)
    if interpreter.startswith(("/usr/", "/bin/")):
        pytest.skip("this Python is a system one: visible anyway, nothing to show")
    install = tmp_path / "install" / "bin"
    install.mkdir(parents=True)
    cli = install / "claude"
    cli.write_text(f"#!{interpreter}\nimport sys\nprint('ran', sys.prefix)\n")
    cli.chmod(0o755)
    ws, home = tmp_path / "ws", tmp_path / "home"
    ws.mkdir()
    home.mkdir()
    env = {"PATH": os.environ["PATH"]}
    cmd, pre = confine.wrap([str(cli)], confine.agent_view(workspace=ws, home=home, claude=str(cli), env=env))
    done = subprocess.run(
        cmd,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
        pass_fds=pre.pass_fds,
    )
    pre.close()
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ran ")


def test_a_killed_session_leaves_nothing_the_next_one_keeps(
    bench_project: Callable[..., Path], tmp_path: Path
) -> None:
    """SIGKILL in the middle of a cell: its scratch (workspace, HOME, the scorer's copies) stays
    until the next session starts, which removes it."""
    root = bench_project(tasks=["sql_lookup"])
    scratch_tmp = tmp_path / "tmp"
    scratch_tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch_tmp)}
    base = scratch_tmp / f"ponybench-{os.getuid()}"
    args = ["benchmarks", "-n", "0", "-p", "no:cacheprovider", "--no-report"]
    killed = subprocess.Popen(
        [sys.executable, "-m", "pytest", *args, "--models", "offline-reference@60s"],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not list(base.glob("*/cell-*/workspace")):
            assert killed.poll() is None and time.monotonic() < deadline, "no cell started"
            time.sleep(0.1)
        (left,) = [p for p in base.iterdir() if p.name.startswith(f"{killed.pid}-")]
    finally:
        os.killpg(killed.pid, 9)
        killed.wait()
    assert left.is_dir()  # the window: until the next session starts
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--selftest-only",
            "-k",
            "sql_lookup and good",
            "-p",
            "no:cacheprovider",
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert not left.exists()
