"""A minimal valid task folder, minus whatever the caller leaves out, and its load problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_ponybench.core.tasks import TaskError, load_task

GOOD_TOML = """\
kind = "surgical"
file = "mod.py"
axis = "correct"
tags = ["quick", "py"]
timeout = 5
description = "Add two numbers"
max_turns = 4
"""


def write_task(
    folder: Path,
    toml: str = GOOD_TOML,
    *,
    prompt: str | None = "Write add(a, b).\n",
    good: bool = True,
    bad: bool = True,
    checks: dict[str, str] | None = None,
) -> Path:
    """A minimal valid surgical task, minus whatever the caller leaves out."""
    folder.mkdir(parents=True)
    (folder / "task.toml").write_text(toml, encoding="utf-8")
    if prompt is not None:
        (folder / "prompt.md").write_text(prompt, encoding="utf-8")
    (folder / "seed").mkdir()
    (folder / "seed" / "README.md").write_text("seed\n", encoding="utf-8")
    if good:
        (folder / "good").mkdir()
        (folder / "good" / "mod.py").write_text("def add(a, b):\n    return a + b\n")
    if bad:
        (folder / "bad").mkdir()
        (folder / "bad" / "mod.py").write_text("def add(a, b):\n    return a - b\n")
    if checks is None:
        checks = {
            "test_correct_add.py": "import mod\n\ndef test_add():\n    assert mod.add(1, 2) == 3\n",
            "test_safe_add.py": "def test_nothing():\n    pass\n",
        }
    if checks:
        (folder / "checks").mkdir()
        for name, text in checks.items():
            (folder / "checks" / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / "checks" / name).write_text(text, encoding="utf-8")
    return folder


def problems(folder: Path, fixtures_dir: Path | None = None) -> list[str]:
    with pytest.raises(TaskError) as info:
        load_task(folder, fixtures_dir)
    assert str(info.value) == "\n".join(info.value.problems)
    return info.value.problems


def the_problem(folder: Path, file: str, *words: str, fixtures_dir: Path | None = None) -> str:
    """The one problem that names folder and file and says every word; fail with all if none."""
    found = problems(folder, fixtures_dir)
    prefix = f"{folder}: {file}"
    hits = [p for p in found if p.startswith(prefix) and all(w in p.removeprefix(prefix) for w in words)]
    assert len(hits) == 1, found
    return hits[0]


def add_ref(folder: Path, name: str, toml: str | None, files: dict[str, str] | None = None) -> Path:
    ref = folder / "refs" / name
    ref.mkdir(parents=True)
    if toml is not None:
        (ref / "ref.toml").write_text(toml, encoding="utf-8")
    for fname, text in (
        files if files is not None else {"mod.py": "def add(a, b):\n    return b + a\n"}
    ).items():
        (ref / fname).parent.mkdir(parents=True, exist_ok=True)
        (ref / fname).write_text(text, encoding="utf-8")
    return ref
