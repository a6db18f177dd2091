"""Shared helpers: a benchmark project laid out in pytester's folder, and its run records."""

from __future__ import annotations

import json
import os
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
CLAUDE = shutil.which("claude")



def pytest_configure(config: pytest.Config) -> None:
    if CLAUDE is None:
        raise pytest.UsageError(
            "the claude CLI is not on PATH: npm install -g @anthropic-ai/claude-code@2.1.332")


@pytest.fixture
def bench_project(pytester: pytest.Pytester) -> Callable[..., Path]:
    """Lay out a project: the shipped suite (or some of its tasks), fixtures, pyproject."""

    def make(tasks: list[str] | None = None, arms: str = "baseline = {}\n",
             extra: str = "") -> Path:
        root = pytester.path
        bench = root / "benchmarks"
        (bench / "tasks").mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / "benchmarks" / "test_cells.py", bench / "test_cells.py")
        for task in sorted((REPO / "benchmarks" / "tasks").iterdir()):
            if task.is_dir() and (tasks is None or task.name in tasks):
                shutil.copytree(task, bench / "tasks" / task.name, dirs_exist_ok=True)
        shutil.copytree(REPO / "fixtures", root / "fixtures", dirs_exist_ok=True)
        (root / "pyproject.toml").write_text(
            f"[tool.ponybench]\nout = \"runs\"\n{extra}\n[tool.ponybench.arms]\n{arms}")
        return root

    return make


def run_dirs(root: Path) -> list[Path]:
    return sorted(p for p in (root / "runs").iterdir() if p.is_dir())


def records(run_dir: Path) -> list[dict[str, Any]]:
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def tagged_processes(tag: str) -> list[str]:
    """Command lines of live processes (zombies excluded) whose environment holds tag.

    Tests set a unique tag in the environment of the pytest they start; every claude, unshare
    and scorer process below it inherits it, so parallel tests never count each other's.
    """
    found = []
    needle = tag.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes():
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError):
            continue
        if state != "Z":
            found.append(cmdline)
    return found


@pytest.fixture
def process_tag(monkeypatch: pytest.MonkeyPatch) -> str:
    tag = f"ponybench-test-{uuid.uuid4().hex}"
    monkeypatch.setenv("PONYBENCH_TEST_TAG", tag)
    return tag
