"""Every benchmark session ends with the HTML report in its run dir, unless --no-report."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import run_dirs

pytestmark = pytest.mark.needs_claude


@pytest.mark.parametrize(
    ("no_report", "workers"), [(False, None), (True, None), (False, "2")], ids=["report", "none", "xdist"]
)
def test_the_session_writes_the_report_unless_asked_not_to(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], no_report: bool, workers: str | None
) -> None:
    """The report is written on a thread while the session ends (with xdist, while the workers
    exit); the summary names it only once it is whole."""
    root = bench_project(tasks=["merge_intervals"])
    dist = ["-n", workers] if workers else ["-p", "no:xdist"]
    args = ["benchmarks", *dist, "--models", "offline-reference"]
    result = pytester.runpytest_subprocess(*args, *(["--no-report"] if no_report else []))
    result.assert_outcomes(passed=1)
    run_dir = run_dirs(root)[-1]
    page = run_dir / "report.html"
    if no_report:
        assert not page.exists() and "report:" not in result.stdout.str()
    else:
        result.stdout.fnmatch_lines([f"report: {page}"])
        assert "merge_intervals" in page.read_text(encoding="utf-8")
