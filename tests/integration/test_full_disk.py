"""A run dir on a full disk (a 1 MiB tmpfs): one clear message with the resume command, the
session stops, no JSON file in the run dir is left truncated, no workspace is stranded."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support import small_tmpfs

pytestmark = pytest.mark.needs_claude


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    with small_tmpfs(tmp_path / "disk") as disk:
        yield disk


def test_a_full_disk_stops_the_run_with_the_resume_command(
    pytester: pytest.Pytester,
    bench_project: Callable[..., Path],
    small_disk: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    bench_project(tasks=["sql_lookup", "merge_intervals", "cart_bogo", "luhn_check", "semver_compare"])
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # cell scratch folders: none may be left behind
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", "offline-reference", "--ponybench-out", str(small_disk / "runs")
    )
    out = result.stdout.str()
    assert "cannot be written ([Errno 28] No space left on device)" in out
    assert "resume with: pytest benchmarks -n 2 --resume" in out
    assert "Traceback" not in out and result.ret != 0
    (run_dir,) = [p for p in (small_disk / "runs").iterdir() if p.is_dir()]
    for path in run_dir.glob("*.json"):
        json.loads(path.read_text())  # whole, or not there at all
    assert not (run_dir / "report.json").exists() or (run_dir / "report.json").stat().st_size > 0
    for line in (run_dir / "results.jsonl").read_text().splitlines():
        json.loads(line)
    left = [p for p in scratch.rglob("*") if p.is_dir() and p.name == "workspace"]
    assert left == [], left
    assert os.listdir(small_disk)  # the run dir itself is there, for the resume
