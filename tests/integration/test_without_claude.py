"""On a machine without the claude CLI: the selftest still runs from the repository root (the
selftest workflow's exact command), integration tests skip with the install line, and the
variable .ci/run sets turns that skip into a failure."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import CLAUDE_INSTALL, REPO, REQUIRE_CLAUDE_ENV


@pytest.fixture(scope="module")
def repo_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tracked files of this repository, as a fresh clone would have them."""
    dest = tmp_path_factory.mktemp("clone") / "repo"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        rel = name.decode()
        source = REPO / rel
        if rel.startswith("runs/") or not source.is_file():
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, dest / rel)
    return dest


@pytest.fixture(scope="module")
def path_without_claude(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A PATH holding every program of this one except claude (links, so nothing else changes)."""
    bin_dir = tmp_path_factory.mktemp("bin")
    # python as this one, in its venv (a link to a venv's python outside the venv's bin/ would
    # start the interpreter without the venv's site-packages).
    for name in ("python", "python3"):
        (bin_dir / name).write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')
        (bin_dir / name).chmod(0o755)
    dirs = [Path(sys.executable).parent, *(Path(d) for d in os.environ["PATH"].split(os.pathsep) if d)]
    for folder in dirs:
        if not folder.is_dir():
            continue
        for program in folder.iterdir():
            target = bin_dir / program.name
            if program.name != "claude" and not target.exists() and os.access(program, os.X_OK):
                target.symlink_to(program)
    assert shutil.which("claude", path=str(bin_dir)) is None
    return str(bin_dir)


def run(repo: Path, path: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != REQUIRE_CLAUDE_ENV}
    full.update(PATH=path, **env)
    return subprocess.run(
        [*args], cwd=repo, env=full, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL
    )


def test_the_selftest_workflow_command_runs_without_claude(repo_copy: Path, path_without_claude: str) -> None:
    workflow = (repo_copy / ".github" / "workflows" / "selftest.yml").read_text()
    command = re.search(r"run: (python -m pytest --selftest-only.*)$", workflow, flags=re.M)
    assert command is not None, "the selftest workflow no longer runs the selftest"
    done = run(repo_copy, path_without_claude, *command.group(1).split())
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert re.search(r"\d+ passed", done.stdout) and "failed" not in done.stdout.splitlines()[-1]


def test_integration_tests_skip_with_the_install_line(repo_copy: Path, path_without_claude: str) -> None:
    done = run(
        repo_copy, path_without_claude, "python", "-m", "pytest", "tests/integration/test_faults.py", "-rs"
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert f"the claude CLI is not on PATH: {CLAUDE_INSTALL}" in done.stdout
    assert re.search(r"\b[1-9]\d* skipped", done.stdout.splitlines()[-1])


def test_ci_variable_turns_the_skip_into_a_failure(repo_copy: Path, path_without_claude: str) -> None:
    done = run(
        repo_copy,
        path_without_claude,
        "python",
        "-m",
        "pytest",
        "tests/integration/test_faults.py",
        **{REQUIRE_CLAUDE_ENV: "1"},
    )
    assert done.returncode == pytest.ExitCode.USAGE_ERROR
    assert f"{REQUIRE_CLAUDE_ENV}=1 but the claude CLI is not on PATH" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("benchmarks", "--collect-only", "-q"),
        ("benchmarks", "--collect-only", "-q", "-n", "2", "--models", "sonnet,offline-coin"),
        ("--pyargs", "pytest_ponybench.suite", "--collect-only", "-q"),
    ],
    ids=["benchmarks", "benchmarks-n2", "pyargs-suite"],
)
def test_listing_the_cells_needs_no_claude(
    repo_copy: Path, path_without_claude: str, args: tuple[str, ...]
) -> None:
    """Collecting runs no cell, so it looks for no claude (and -n 2, which xdist ignores when
    only collecting, lists the cells, not the tasks' own checks)."""
    done = run(repo_copy, path_without_claude, "python", "-m", "pytest", *args)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    listed = [line for line in done.stdout.splitlines() if "::test_cell[" in line]
    assert listed and len(listed) == int(re.findall(r"(\d+) tests? collected", done.stdout)[-1])
    assert "claude CLI was not found" not in done.stdout + done.stderr


def test_a_run_without_claude_still_names_the_missing_cli(repo_copy: Path, path_without_claude: str) -> None:
    done = run(repo_copy, path_without_claude, "python", "-m", "pytest", "benchmarks", "--tasks", "csv_parse")
    assert done.returncode == pytest.ExitCode.USAGE_ERROR
    assert "ponybench: the claude CLI was not found (--claude 'claude')" in done.stderr
