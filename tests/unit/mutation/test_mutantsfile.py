"""A task folder's mutants.toml: its errors name the file and the key, a missing one is empty, the
written file reads back, and the selftest shows the figure `ponybench mutate` wrote (every shipped
task's at the goal)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pytest_ponybench import mutation
from pytest_ponybench.core.tasks import load_task, task_folders
from pytest_ponybench.roles.selftest import mutation_figure
from tests.support import REPO
from tests.unit._support.mutants import mutants


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mutants.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "text, message",
    [
        ("[equivalent\n", "not valid TOML"),
        ('[equivalent]\nnot-an-id = "x"\n', "key 'equivalent.not-an-id': not a mutant id"),
        (
            '[equivalent]\n0123456789 = ""\n',
            "key 'equivalent.0123456789': the reason must be a non-empty string",
        ),
        (
            "[equivalent]\n0123456789 = 3\n",
            "key 'equivalent.0123456789': the reason must be a non-empty string",
        ),
        ("[result]\nkilled = -1\n", "key 'result.killed': must be a whole number >= 0"),
        ("[result]\nmurdered = 1\n", "key 'result.murdered': unknown"),
        ('equivalents = "x"\n', "unknown key(s) equivalents"),
        ('equivalent = "x"\n', "key 'equivalent' must be a table"),
    ],
)
def test_a_bad_mutants_file_names_the_file_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(mutation.MutantsFileError) as caught:
        mutation.read_mutants_file(path)
    assert str(path) in str(caught.value) and message in str(caught.value)


def test_a_missing_mutants_file_is_empty(tmp_path: Path) -> None:
    parsed = mutation.read_mutants_file(tmp_path / "mutants.toml")
    assert parsed.equivalent == {} and parsed.result == {}


def test_the_written_file_reads_back_and_the_selftest_shows_its_figure(tmp_path: Path) -> None:
    task = load_task(REPO / "benchmarks" / "tasks" / "merge_intervals")
    found = mutants("def f(a):\n    return a < 1\n")
    outcome = mutation.TaskOutcome(
        "t", found, killed=len(found) - 2, survived=[found[0]], equivalent=[found[1]]
    )
    old = mutation.MutantsFile(tmp_path / "mutants.toml", equivalent={found[1].id: 'a "quoted" reason'})
    folder = tmp_path / "task"
    folder.mkdir()
    (folder / "mutants.toml").write_text(mutation.render_mutants_file(outcome, old), encoding="utf-8")
    back = mutation.read_mutants_file(folder / "mutants.toml")
    assert back.equivalent == {found[1].id: 'a "quoted" reason'}
    assert back.result == {"killed": len(found) - 2, "survived": 1, "equivalent": 1, "total": len(found)}
    assert (folder / "mutants.toml").read_text().count(found[0].id) == 1  # listed as a survivor
    figure, low = mutation_figure(dataclasses.replace(task, path=folder))
    assert figure == f"mutants {len(found) - 2}/{len(found) - 1} killed (1 equivalent)"
    assert low == (len(found) - 2 < 0.9 * (len(found) - 1))


def test_the_selftest_says_when_a_task_has_no_figure_or_a_broken_one(tmp_path: Path) -> None:
    task = load_task(REPO / "benchmarks" / "tasks" / "merge_intervals")
    folder = tmp_path / "task"
    folder.mkdir()
    bare = dataclasses.replace(task, path=folder)
    assert mutation_figure(bare) == ("no mutation figure (ponybench mutate)", False)
    (folder / "mutants.toml").write_text("[result]\nkilled = 1\n", encoding="utf-8")
    figure, low = mutation_figure(bare)
    assert figure.startswith("mutants.toml has no readable [result]") and low
    (folder / "mutants.toml").write_text(
        "[result]\nkilled = 8\ntotal = 11\nequivalent = 1\n", encoding="utf-8"
    )
    assert mutation_figure(bare) == ("mutants 8/10 killed (1 equivalent)", True)


def test_every_shipped_task_has_a_figure_at_the_goal() -> None:
    """The stored figures docs/tasks.md's table shows: every scored task meets the goal."""
    for folder in task_folders(REPO / "benchmarks" / "tasks"):
        task = load_task(folder, REPO / "fixtures")
        if not task.scored:
            continue
        figure, low = mutation_figure(task)
        assert figure.startswith("mutants ") and not low, f"{task.id}: {figure}"
