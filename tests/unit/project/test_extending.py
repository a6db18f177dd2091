"""The extension points: hook-added arms resolve into the plan, and the shipped project's own
metric (the root conftest's typed_defs) reads delivered code without running it."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.support import REPO, one_task_project


def root_conftest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ponybench_root_conftest", REPO / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cell_dir(tmp_path: Path, seeded: dict[str, bytes], now: dict[str, bytes]) -> Path:
    ws = tmp_path / "workspace"
    for rel, data in now.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_bytes(data)
    digest = {rel: hashlib.sha256(data).hexdigest() for rel, data in seeded.items()}
    (tmp_path / "seeded.json").write_text(json.dumps(digest))
    return tmp_path


def test_typed_defs_counts_only_what_the_agent_wrote(tmp_path: Path) -> None:
    untouched = b"def old(a, b):\n    return a\n"
    wrote = (
        b"def f(a: int, *rest: int) -> int:\n    return a\n\nclass C:\n    def m(self, x):\n        pass\n"
    )
    folder = cell_dir(tmp_path, {"old.py": untouched}, {"old.py": untouched, "new.py": wrote})
    assert root_conftest().typed_share(folder) == 0.5


def test_typed_defs_never_imports_the_code(tmp_path: Path) -> None:
    boom = b"raise SystemExit('imported!')\ndef f() -> None: ...\n"
    folder = cell_dir(tmp_path, {}, {"boom.py": boom, "broken.py": b"def (:\n"})
    assert root_conftest().typed_share(folder) == 1.0


def test_nothing_written_is_none_not_zero(tmp_path: Path) -> None:
    assert root_conftest().typed_share(cell_dir(tmp_path, {}, {})) is None


def _project(pytester: pytest.Pytester, hook_body: str) -> None:
    one_task_project(pytester.path)
    pytester.makeconftest(f"def pytest_ponybench_arms(config):\n    {hook_body}\n")


def test_arms_added_by_a_hook_become_cells(pytester: pytest.Pytester) -> None:
    _project(pytester, 'return ["terse=prompt:Answer in one line.", "typed=settings:{}"]')
    result = pytester.runpytest("benchmarks", "--collect-only", "-q", "--claude", "./claude")
    for arm in ("baseline", "terse", "typed"):
        assert f"test_cell[merge_intervals-{arm}-offline-reference-r0]" in result.stdout.str()


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ('return "terse=prompt:x"', "must return a list of arm specs"),
        ('return ["terse"]', "pytest_ponybench_arms in"),
        ('return ["baseline=prompt:x"]', "'baseline' (pytest_ponybench_arms in"),
    ],
)
def test_a_bad_hook_arm_is_a_usage_error_naming_the_hook(
    pytester: pytest.Pytester, body: str, said: str
) -> None:
    _project(pytester, body)
    result = pytester.runpytest("benchmarks", "--collect-only", "-q", "--claude", "./claude")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert said in result.stderr.str()
