"""The package as a new user gets it: a wheel built from this tree, installed into a fresh venv
(its dependencies from the package index), run in empty folders through the real CLI, offline.

The wheel is built and installed once per test session (every xdist worker shares it, under a
lock). Nothing here imports the checkout: each step is the installed `pytest` or `ponybench` in
a folder of its own, with no PYTHONPATH, as a user would type it.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import REPO, records, run_dirs

SUITE = "pytest_ponybench/suite"
SHIPPED = {
    "benchmarks/tasks/": f"{SUITE}/tasks/",
    "fixtures/": f"{SUITE}/fixtures/",
    "examples/": "pytest_ponybench/examples/",
}
TIMEOUT_S = 600


def tracked(*paths: str) -> list[str]:
    """The repository's files (committed or new, never ignored) under paths."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *paths],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return sorted(f for f in out.split("\0") if f and (REPO / f).is_file())


def run(argv: list[str], cwd: Path, bin_dir: Path) -> subprocess.CompletedProcess[str]:
    """argv in cwd as a user of the venv would run it: its bin first on PATH, nothing of ours."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST", "PYTHON", "PONYBENCH", "VIRTUAL_ENV", "COV_"))
    }
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL
    )


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, (
        f"{done.args} exited {done.returncode}\n{done.stdout[-6000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def _shared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every xdist worker of this session sees (the basetemp's parent under xdist)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """(the wheel, the bin folder of a fresh venv it is installed in), made once per session."""
    shared = _shared(tmp_path_factory)
    with open(shared / "ponybench-wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = shared / "ponybench-wheel"
        if not (done / "ready").is_file():
            shutil.rmtree(done, ignore_errors=True)
            src, dist, venv = done / "src", done / "dist", done / "venv"
            for rel in tracked("."):
                (src / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(REPO / rel, src / rel)
            build = [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-w", str(dist), "-q"]
            ok(subprocess.run(build, capture_output=True, text=True, timeout=TIMEOUT_S))
            ok(subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True))
            wheel = next(dist.glob("*.whl"))
            pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)]
            ok(subprocess.run(pip, capture_output=True, text=True, timeout=TIMEOUT_S))
            (done / "ready").write_text(str(wheel))
        yield Path((done / "ready").read_text()), done / "venv" / "bin"


def test_the_wheel_carries_the_suite_its_fixtures_and_the_examples(installed: tuple[Path, Path]) -> None:
    wheel, bin_dir = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for source, inside in SHIPPED.items():
        want = {inside + f[len(source) :] for f in tracked(source)}
        got = {n for n in names if n.startswith(inside)}
        assert got == want, f"{source}: missing {sorted(want - got)[:5]}, extra {sorted(got - want)[:5]}"
    assert {f"{SUITE}/__init__.py", f"{SUITE}/test_cells.py"} <= names
    assert "pytest_ponybench/examples/careful-plugin/.claude-plugin/plugin.json" in names  # dot folders too
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    # The installed package reads its suite from itself, not from this checkout.
    where = run(
        [str(bin_dir / "python"), "-c", "from pytest_ponybench._util import paths; print(paths.SUITE_TASKS)"],
        bin_dir,
        bin_dir,
    )
    tasks = Path(ok(where).strip())
    assert tasks.parts[-3:] == ("pytest_ponybench", "suite", "tasks") and "site-packages" in tasks.parts
    assert not tasks.is_relative_to(REPO)


@pytest.mark.needs_claude
def test_the_built_in_suite_runs_from_an_empty_folder(installed: tuple[Path, Path], tmp_path: Path) -> None:
    _, bin_dir = installed
    pytest_bin = str(bin_dir / "pytest")
    suite = Path(
        ok(
            run(
                [str(bin_dir / "python"), "-c", "import pytest_ponybench.suite as s; print(s.__path__[0])"],
                tmp_path,
                bin_dir,
            )
        ).strip()
    )
    before = tree_hash(suite)
    tasks = "sql_lookup,trail_pagination"  # a surgical task with safety checks, a fixture task
    out = ok(
        run(
            [
                pytest_bin,
                "--pyargs",
                "pytest_ponybench.suite",
                "--selftest-only",
                "-n",
                "2",
                "--tasks",
                tasks,
            ],
            tmp_path,
            bin_dir,
        )
    )
    summary = re.search(r"^2 tasks, (\d+) references .*; (\d+)/(\d+) as declared", out, re.M)
    assert summary is not None and summary[1] == summary[2] == summary[3], out[-3000:]
    models = "offline-reference,offline-flawed,offline-escape"
    out = ok(
        run(
            [
                pytest_bin,
                "--pyargs",
                "pytest_ponybench.suite",
                "-n",
                "2",
                "--models",
                models,
                "--tasks",
                tasks,
            ],
            tmp_path,
            bin_dir,
        )
    )
    assert re.search(r"= 2 passed, 4 xfailed in ", out), out[-3000:]
    recs = records(run_dirs(tmp_path)[0])
    assert sorted((r["task"], r["model"]) for r in recs) == sorted(
        (t, m) for t in tasks.split(",") for m in models.split(",")
    )
    assert all(r["valid"] for r in recs)
    # The hostile agent searched the machine for checks and records: the suite it runs from lies in
    # the venv, which it never saw, and every file of it is as it was.
    escapes = [r for r in recs if r["model"] == "offline-escape"]
    assert all(r["safe"] is False and r["outside_writes"] for r in escapes)
    assert not [p for r in escapes for p in r["outside_reads"] if str(suite) in p]
    assert tree_hash(suite) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".pytest_cache", "runs"]


@pytest.mark.needs_claude
def test_init_in_an_empty_git_repository_with_a_plugin(installed: tuple[Path, Path], tmp_path: Path) -> None:
    _, bin_dir = installed
    pytest_bin, ponybench = str(bin_dir / "pytest"), str(bin_dir / "ponybench")
    repo = tmp_path / "my-plugin"
    (repo / ".claude-plugin").mkdir(parents=True)
    (repo / ".claude-plugin" / "plugin.json").write_text('{"name": "my-plugin", "version": "0.1.0"}\n')
    (repo / "hooks").mkdir()
    (repo / "hooks" / "hooks.json").write_text(
        '{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo Keep it short."}]}]}}\n'
    )
    ok(run(["git", "init", "-q"], repo, bin_dir))

    out = ok(run([ponybench, "init"], repo, bin_dir))
    assert "  arm       my_plugin = the plugin my-plugin in .\n" in out, out
    assert "  pytest benchmarks -n 2 --models offline-reference,offline-flawed\n" in out
    assert (repo / ".gitignore").read_text().splitlines()[1:] == ["/runs/", "__pycache__/"]
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    ok(run([*git, "add", "-A"], repo, bin_dir))
    ok(run([*git, "commit", "-qm", "opted in"], repo, bin_dir))

    out = ok(run([pytest_bin, "--selftest-only", "-n", "2"], repo, bin_dir))
    assert "4 tasks, 18 references" in out and "18/18 as declared; 0 task(s) flagged" in out, out[-3000:]

    out = ok(
        run(
            [pytest_bin, "benchmarks", "-n", "2", "--models", "offline-reference,offline-flawed"],
            repo,
            bin_dir,
        )
    )
    assert re.search(r"= 8 passed, 8 xfailed in ", out), out[-3000:]
    assert "my_plugin vs baseline (offline-reference): 4 paired tasks" in out
    recs = records(run_dirs(repo)[0])
    assert len(recs) == 16 and all(r["valid"] for r in recs)
    # The run dir is ignored: the checkout the run measured stays clean, as the report says.
    assert json.loads((run_dirs(repo)[0] / "run.json").read_text())["project"]["git_dirty"] is False
    assert all(("my-plugin" in r["plugins"]) == (r["arm"] == "my_plugin") for r in recs)
    # The plugin is the repository, records and tasks included: the arm it measures is one
    # arm all run long, whatever the run writes beside it.
    described = json.loads((run_dirs(repo)[0] / "run.json").read_text())["arms"]
    assert {r["arm_hash"] for r in recs if r["arm"] == "my_plugin"} == {
        a["hash"] for a in described if a["name"] == "my_plugin"
    }

    out = ok(
        run(
            [
                pytest_bin,
                "benchmarks",
                "--models",
                "sonnet",
                "--runs",
                "3",
                "--tasks",
                "starter_checks",
                "--dry-run",
            ],
            repo,
            bin_dir,
        )
    )
    assert "grid: 1 tasks x 2 arms x 1 models x 3 runs = 6 cells" in out and "whole run: $" in out, out[
        -3000:
    ]

    before = (
        tree_hash(repo / "benchmarks"),
        (repo / "pyproject.toml").read_bytes(),
        (repo / "conftest.py").read_bytes(),
    )
    out = ok(run([ponybench, "init"], repo, bin_dir))
    assert "Nothing was changed: everything init writes is already here." in out
    assert (
        tree_hash(repo / "benchmarks"),
        (repo / "pyproject.toml").read_bytes(),
        (repo / "conftest.py").read_bytes(),
    ) == before

    ok(run([ponybench, "task", "new", "my_check", "--axis", "correct"], repo, bin_dir))
    out = ok(run([pytest_bin, "--selftest-only", "-k", "my_check"], repo, bin_dir))
    assert re.search(
        r"^my_check: 2 refs .*2/2 as declared.* -- BELOW MINIMUM: 1 correct \(needs 2\)$", out, re.M
    ), out[-3000:]
    # The command the selftest names for the mutation figure is in the wheel, and writes it.
    assert "no mutation figure (ponybench mutate)" in out, out[-3000:]
    out = ok(run([ponybench, "mutate", "--tasks", "my_check"], repo, bin_dir))
    assert re.search(r"^my_check: mutants \d+/\d+ killed", out, re.M) and "1 task(s)" in out, out
    assert (repo / "benchmarks" / "tasks" / "my_check" / "mutants.toml").is_file()
    out = ok(run([pytest_bin, "--selftest-only", "-k", "my_check"], repo, bin_dir))
    assert re.search(r"^my_check: .*; mutants \d+/\d+ killed", out, re.M), out[-3000:]
