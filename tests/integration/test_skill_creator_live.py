"""A skill-creator suite imported and run through the real CLI against the offline server: the
plugin's skill as the arm against baseline, each expectation judged, each trigger query scored
in the arm's trigger accuracy; and a skill at its repository's root as a skills arm."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_ponybench.cpe.skillcreator import import_skill_suite
from tests.support import REPO, records, run_dirs

pytestmark = pytest.mark.needs_claude
DATA = REPO / "tests" / "unit" / "data" / "skill-creator"


def project(root: Path, arms: str) -> None:
    shutil.copy(REPO / "benchmarks" / "test_cells.py", root / "benchmarks" / "test_cells.py")
    (root / "pyproject.toml").write_text(f'[tool.ponybench]\nout = "runs"\n\n[tool.ponybench.arms]\n{arms}')


def test_a_plugin_s_skill_suite_runs_with_its_triggers_scored(pytester: pytest.Pytester) -> None:
    root = pytester.path
    shutil.copytree(DATA / "in-plugin", root / "in-plugin")
    done = import_skill_suite(
        root / "in-plugin" / "skills" / "pager", root / "benchmarks" / "tasks", cwd=root
    )
    name, spec = done.arm
    kind, path = spec.split(":", 1)
    project(root, f'baseline = {{}}\n{name} = {{ {kind} = "{path}" }}\n')
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", "offline-coin", "--runs", "1", "-p", "no:cacheprovider"
    )
    recs = records(run_dirs(root)[0])
    assert len(recs) == 3 * 2 and all(r["valid"] for r in recs), result.stdout.str()[-3000:]
    by = {(r["task"], r["arm"]): r for r in recs}
    # Each expectation is a judge grader of the eval's cells (the offline judge, no directive: fails).
    graded = by[("pager_long-log", "pager")]["graders"]
    assert [(g["name"], g["type"], g["passed"]) for g in graded] == [
        ("expectation_1", "llm", False),
        ("expectation_2", "llm", False),
    ]
    # The trigger queries: each cell carries its expectation, and the plugin's skill fired
    # (offline-coin calls a plugin's skill it is offered) with the arm and not without it.
    assert by[("pager_trigger_1", "pager")]["expect_fire"] is True
    assert by[("pager_trigger_2", "pager")]["expect_fire"] is False
    assert by[("pager_trigger_1", "pager")]["skills_used"] == ["reading-tools:pager"]
    assert by[("pager_trigger_1", "baseline")]["skills_used"] == []
    result.stdout.fnmatch_lines(
        [
            "*trigger accuracy of pager (offline-coin): fired where expected 1/1 *"
            "fired where not expected 1/1 *"
        ]
    )


def test_a_skill_at_its_repository_s_root_is_a_skills_arm(pytester: pytest.Pytester) -> None:
    root = pytester.path
    for item in (DATA / "at-root").iterdir():
        (shutil.copytree if item.is_dir() else shutil.copy)(item, root / item.name)
    done = import_skill_suite(root, root / "benchmarks" / "tasks", cwd=root)
    assert done.arm == ("csv_summary", "skills:.")
    project(root, 'baseline = {}\ncsv_summary = { skills = "." }\n')
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-reference",
        "--runs",
        "1",
        "--tasks",
        "csv-summary_1,csv-summary_trigger_1",
        "-p",
        "no:cacheprovider",
    )
    recs = records(run_dirs(root)[0])
    assert len(recs) == 4 and all(r["valid"] for r in recs), result.stdout.str()[-3000:]
    # The CLI lists the skill by its folder's name, and the cell counts it as the arm's.
    mine = [r for r in recs if r["arm"] == "csv_summary"]
    assert all(r["skills_available"] == [root.name] for r in mine), [r["skills_available"] for r in mine]
    assert all(r["skills_available"] == [] for r in recs if r["arm"] == "baseline")
