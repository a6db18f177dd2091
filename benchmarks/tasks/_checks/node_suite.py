"""Run a Node.js workspace's own test suite (`node --test test/`) in a copy of it, for the checks
of tasks whose prompt asks the suite to pass, or a test to fail on the code as it was
(task.toml: shared_checks = ["js_runner.py", "node_suite.py"]: node and the workspace are
js_runner's). The copy keeps what a run writes out of the workspace the other checks read;
node_modules and .git are left out of it."""

import shutil
import subprocess
from pathlib import Path

import pytest
from js_runner import WORKSPACE, node


def copy_workspace(dest: Path) -> Path:
    """The workspace (where the checks started) copied to dest."""
    shutil.copytree(WORKSPACE, dest, ignore=shutil.ignore_patterns("node_modules", ".git"), symlinks=True)
    return dest


def run_suite(where: Path, timeout: float = 100) -> subprocess.CompletedProcess[str]:
    """`node --test test/` in where; fails the check when node is missing or the run times out."""
    try:
        return subprocess.run(
            [node(), "--test", "test/"],
            cwd=where,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"`node --test test/` did not finish within {timeout:g} s")


def summary(proc: subprocess.CompletedProcess[str]) -> str:
    """The failing tests and the pass/fail counts of a run, for a check's message."""
    out = proc.stdout + proc.stderr
    lines = [ln for ln in out.splitlines() if ln.startswith(("# pass", "# fail", "not ok"))]
    return " | ".join(lines[:6]) or out.strip()[-300:]
