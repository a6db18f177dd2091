"""The mutation run around the operators: the tasks whose folder or fixture changed since a ref,
every JavaScript and TypeScript mutant of the shipped tasks parsing, and what counts as the sandbox's
failure rather than the mutant's."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench import mutation
from pytest_ponybench.core.tasks import load_task, task_folders
from pytest_ponybench.mutation import runner
from tests.support import REPO


def test_changed_since_names_the_tasks_whose_folder_or_fixture_changed(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    for rel in (
        "benchmarks/tasks/a/prompt.md",
        "benchmarks/tasks/b/prompt.md",
        "benchmarks/tasks/c/prompt.md",
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x\n")
    (tmp_path / "fixtures" / "shop").mkdir(parents=True)
    (tmp_path / "fixtures" / "shop" / "cart.py").write_text("x = 1\n")
    git("init", "-q", "-b", "main")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "base")
    tasks = {"a": None, "b": None, "c": "shop"}
    changed = mutation.changed_tasks
    assert changed("HEAD", tmp_path, tmp_path / "benchmarks" / "tasks", tasks) == []
    (tmp_path / "benchmarks" / "tasks" / "a" / "prompt.md").write_text("y\n")  # edited, not committed
    (tmp_path / "fixtures" / "shop" / "cart.py").write_text("x = 2\n")  # c's fixture
    assert changed("HEAD", tmp_path, tmp_path / "benchmarks" / "tasks", tasks) == ["a", "c"]
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "mutate_refs.py").write_text("")  # a new mutator: every task
    assert changed("HEAD", tmp_path, tmp_path / "benchmarks" / "tasks", tasks) == ["a", "b", "c"]
    (tmp_path / "scripts" / "mutate_refs.py").unlink()
    (tmp_path / "pytest_ponybench" / "mutation").mkdir(parents=True)
    (tmp_path / "pytest_ponybench" / "mutation" / "python.py").write_text("")  # the mutator's own code
    assert changed("HEAD", tmp_path, tmp_path / "benchmarks" / "tasks", tasks) == ["a", "b", "c"]
    with pytest.raises(mutation.ChangedSinceError, match="--changed-since nope"):
        changed("nope", tmp_path, tmp_path / "benchmarks" / "tasks", tasks)


def shipped_mutants(typescript: bool) -> list[tuple[str, list[str]]]:
    """(source, its mutants' sources) of every shipped JavaScript (or TypeScript) reference file."""
    files: list[tuple[str, list[str]]] = []
    for folder in task_folders(REPO / "benchmarks" / "tasks"):
        task = load_task(folder, REPO / "fixtures")
        for ref, refs_files in runner.references_to_mutate(task):
            for path, data in sorted(refs_files.items()):
                if mutation.is_javascript(path) and mutation.is_mutated(path):
                    if mutation.is_typescript(path) != typescript:
                        continue
                    text = data.decode("utf-8")
                    lines = mutation.changed_lines(runner.base_text(task, path), text)
                    files.append((text, [m.source for m in mutation.mutants_of(ref, path, text, lines)]))
    return files


@pytest.mark.skipif(shutil.which("node") is None, reason="node parses the mutants")
def test_every_javascript_mutant_of_the_shipped_tasks_parses_in_node() -> None:
    """The tokenizer is no parser: node, which does parse, agrees that each mutant the script
    makes of the shipped JavaScript references is a program (one node process compiles them)."""
    files = shipped_mutants(typescript=False)
    assert sum(len(m) for _, m in files) > 500
    verdicts = runner.js_parses(files)
    assert verdicts is not None
    assert all(all(oks) for oks in verdicts)
    # and it does tell: a broken mutant is refused, in the original's mode (module or script)
    assert runner.js_parses([("export const a = 1;\n", ["export const a = ;", "export const a = 2;"])]) == [
        [False, True]
    ]


@pytest.mark.skipif(runner.typescript_module() is None, reason="the TypeScript compiler parses the mutants")
def test_every_typescript_mutant_of_the_shipped_tasks_parses() -> None:
    """The same for TypeScript, parsed by the compiler found through `tsc` (syntax only: a
    mutant that does not type-check is for the checks, which type-check, to kill)."""
    files = shipped_mutants(typescript=True)
    assert sum(len(m) for _, m in files) > 300
    verdicts = runner.js_parses(files, typescript=True)
    assert verdicts is not None
    assert all(all(oks) for oks in verdicts)
    broken = ["const a: number = ;", "const a: number = 2;", "let m: Map<string, number>= x;"]
    assert runner.js_parses([("const a: number = 1;\n", broken)], typescript=True) == [[False, True, True]]


def test_only_a_process_that_died_before_any_check_counts_as_a_sandbox_failure() -> None:
    from pytest_ponybench.scoring.checks import Check, Score

    def scored(*checks: tuple[str, str]) -> Any:
        return Score(False, False, "r", [Check(n, o, "m") for n, o in checks])

    failed = mutation.sandbox_failed
    assert failed(scored(("session", "crashed")))
    # A check that ran and crashed, a timeout, a plain failure: the mutant's doing.
    assert not failed(scored(("test_correct.py::test_a", "crashed")))
    assert not failed(scored(("session", "timeout")))
    assert not failed(scored(("test_correct.py::test_a", "failed")))
    assert not failed(scored(("session", "crashed"), ("test_correct.py::test_a", "not run")))
