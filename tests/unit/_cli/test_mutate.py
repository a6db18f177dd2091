"""`ponybench mutate`: a task's mutants listed from the project's folders, one clear usage error per
bad flag, and the repository's script as the command pointed at the shipped suite."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_ponybench import cli
from tests.support import REPO


def test_ponybench_mutate_lists_a_tasks_mutants_from_the_projects_folders(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)  # [tool.ponybench] tasks and fixtures of this repository
    assert cli.main(["mutate", "--list", "--tasks", "merge_intervals"]) == cli.OK
    out = capsys.readouterr().out
    assert re.match(
        r"merge_intervals: (\d+) mutants \(\1 made\)\n  [0-9a-f]{10} good/intervals\.py:\d+ ", out
    )


def test_ponybench_mutate_names_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["mutate"]) == cli.USAGE  # no tasks folder where it runs
    assert "benchmarks/tasks: no tasks folder here (give --tasks-dir" in capsys.readouterr().err
    where = ["--tasks-dir", str(REPO / "benchmarks" / "tasks"), "--fixtures-dir", str(REPO / "fixtures")]
    assert cli.main(["mutate", *where, "--tasks", "merge_intervals,nope", "--list"]) == cli.USAGE
    assert "--tasks: unknown task(s) nope in " in capsys.readouterr().err
    assert cli.main(["mutate", *where, "--changed-since", "no-such-ref"]) == cli.USAGE
    assert "--changed-since no-such-ref: git diff --name-only no-such-ref --: " in capsys.readouterr().err
    assert cli.main(["mutate", *where, "--jobs", "0"]) == cli.USAGE
    assert "--jobs must be at least 1, not 0" in capsys.readouterr().err


def test_the_repositorys_script_is_the_command_pointed_at_the_shipped_suite(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "mutate_refs.py"), "--list", "--tasks", "merge_intervals"],
        cwd=tmp_path,  # from anywhere
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("merge_intervals: ")
