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

from pytest_ponybench.core.tasks import load_tasks
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


def run(
    repo: Path, path: str, *args: str, timeout: float = 900, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != REQUIRE_CLAUDE_ENV}
    full.update(PATH=path, **(env or {}))
    return subprocess.run(
        [*args], cwd=repo, env=full, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )


# The whole suite's selftest grows with the suite: its own limit, above pytest-timeout's default.
@pytest.mark.timeout(2400)
def test_the_selftest_workflow_command_proves_the_shipped_suite_without_claude(
    repo_copy: Path, path_without_claude: str
) -> None:
    """The workflow's exact command (with -v, so each reference has its line), on a machine with
    no claude CLI: every reference of the shipped suite as declared, every contract table sound,
    the three instruments, and the closing summary with no task flagged. One run of the whole
    selftest serves both claims: it is the costliest test of the suite."""
    workflow = (repo_copy / ".github" / "workflows" / "selftest.yml").read_text()
    command = re.search(r"run: (python -m pytest --selftest-only.*)$", workflow, flags=re.M)
    assert command is not None, "the selftest workflow no longer runs the selftest"
    tasks = load_tasks(repo_copy / "benchmarks" / "tasks", repo_copy / "fixtures")
    n_refs = sum(len(t.references) for t in tasks)
    n_tables = sum((t.path / "contract.md").is_file() for t in tasks)  # one item per contract table
    assert n_refs >= 4 * len(tasks)
    assert n_tables >= 10
    done = run(repo_copy, path_without_claude, *command.group(1).split(), "-v", timeout=2400)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    outcomes = pytest.RunResult.parse_summary_nouns(lines)
    assert outcomes.get("passed") == n_refs + n_tables + 3, lines[-1]
    assert not {"failed", "errors", "skipped", "xfailed", "xpassed"} & outcomes.keys(), lines[-1]
    out = pytest.LineMatcher(lines)
    for name in ("sql_lookup?good?", "sql_lookup?bad?", "sql_lookup?like_match?"):
        out.fnmatch_lines([f"*PASSED selftest::{name}*"])
    out.fnmatch_lines(["*PASSED selftest::instrument?crashed_cell_never_passes?*"])
    # The closing summary: one line per scored task, none flagged, and the totals.
    out.fnmatch_lines(
        [
            "*= ponybench selftest: references per task =*",
            "sql_lookup: * refs (2 correct, 1 correct+unsafe, * unsafe, 3 safe+incorrect); */* as declared; "
            "mutants */* killed (* equivalent); blind flawed caught */*; "
            "contract * rows (* checked, * not checked)",
            f"{sum(t.scored for t in tasks)} tasks, {n_refs} references (*); {n_refs}/{n_refs} as declared; "
            "blind flawed caught */*; 0 task(s) flagged",
        ]
    )
    assert "BELOW MINIMUM" not in done.stdout
    assert "MUTANTS BELOW" not in done.stdout and "no mutation figure" not in done.stdout
    assert not (repo_copy / "runs").exists(), "the selftest must not create a run dir"


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
        env={REQUIRE_CLAUDE_ENV: "1"},
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
