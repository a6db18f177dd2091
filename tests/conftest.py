"""Fixtures of this project's tests; plain helpers live in tests/support.py.

Tests in two layers: tests/unit needs no claude and no network; tests/integration runs the real
CLI where a test is marked `needs_claude` (`needs_opencode`, `needs_copilot`, `needs_codex`:
the other agents' CLIs). Without the CLI those tests skip with the install line, unless
PONYBENCH_REQUIRE_CLAUDE=1 (set by .ci/run, which installs every pinned CLI) turns the skip into
a failure.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import CLIS, REPO, REQUIRE_CLAUDE_ENV


def pytest_configure(config: pytest.Config) -> None:
    for marker, (name, found, install) in CLIS.items():
        config.addinivalue_line("markers", f"{marker}: runs the real {name} CLI")
        if found is None and os.environ.get(REQUIRE_CLAUDE_ENV) == "1":
            raise pytest.UsageError(f"{REQUIRE_CLAUDE_ENV}=1 but the {name} CLI is not on PATH: {install}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for marker, (name, found, install) in CLIS.items():
        if found is not None:
            continue
        skip = pytest.mark.skip(reason=f"the {name} CLI is not on PATH: {install}")
        for item in items:
            if item.get_closest_marker(marker):
                item.add_marker(skip)


@pytest.fixture
def bench_project(pytester: pytest.Pytester) -> Callable[..., Path]:
    """Lay out a project: the shipped suite (or some of its tasks), fixtures, pyproject."""

    def make(tasks: list[str] | None = None, arms: str = "baseline = {}\n", extra: str = "") -> Path:
        root = pytester.path
        bench = root / "benchmarks"
        (bench / "tasks").mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / "benchmarks" / "test_cells.py", bench / "test_cells.py")
        for task in sorted((REPO / "benchmarks" / "tasks").iterdir()):
            # `_checks/` and the like are not tasks: the shared check modules some tasks name.
            if task.is_dir() and (tasks is None or task.name in tasks or task.name.startswith("_")):
                shutil.copytree(task, bench / "tasks" / task.name, dirs_exist_ok=True)
        shutil.copytree(REPO / "fixtures", root / "fixtures", dirs_exist_ok=True)
        (root / "pyproject.toml").write_text(
            f'[tool.ponybench]\nout = "runs"\n{extra}\n[tool.ponybench.arms]\n{arms}'
        )
        return root

    return make


@pytest.fixture(params=["warm", "cold"])
def both_scorers(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The test runs through the warm scorer and the cold one: both must judge alike."""
    mode = str(request.param)
    monkeypatch.setenv("PONYBENCH_SCORER", mode)
    return mode


@pytest.fixture
def process_tag(monkeypatch: pytest.MonkeyPatch) -> str:
    """A unique tag in the environment of the pytest a test starts; see support.tagged_processes."""
    tag = f"ponybench-test-{uuid.uuid4().hex}"
    monkeypatch.setenv("PONYBENCH_TEST_TAG", tag)
    return tag
