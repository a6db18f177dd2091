"""A plugin arm's (and a skills arm's) content hash: what the plugin is, and not the benchmark
that lives beside it when the plugin is the repository ponybench runs in (`ponybench init` in a
plugin's repo, a skill at its repository's root)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_ponybench.agents.install import lay_arm
from pytest_ponybench.core.arms import apart_from, make_arm
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.plan.previous import arms_of
from pytest_ponybench.store.results import RunDir
from pytest_ponybench.store.runinfo import RunInfo
from tests.support import REPO


def plugin_repo(root: Path) -> Path:
    """A plugin at the root of a repository that also holds benchmarks/, fixtures/ and runs/."""
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text('{"name": "mine"}\n')
    (root / "skills" / "tidy").mkdir(parents=True)
    (root / "skills" / "tidy" / "SKILL.md").write_text("---\nname: tidy\n---\nKeep it tidy.\n")
    (root / "benchmarks" / "tasks" / "t1").mkdir(parents=True)
    (root / "benchmarks" / "tasks" / "t1" / "prompt.md").write_text("Do it.\n")
    (root / "fixtures").mkdir()
    (root / "runs").mkdir()
    return root


def own(root: Path) -> list[Path]:
    return [root / "benchmarks" / "tasks", root / "fixtures", root / "runs"]


def test_a_run_writing_beside_a_root_plugin_leaves_its_hash_alone(tmp_path: Path) -> None:
    root = plugin_repo(tmp_path / "repo")
    (arm,) = apart_from([make_arm("mine", [("plugin", ".")], root, "pyproject.toml")], own(root))
    before = arm.content_hash()
    (root / "runs" / "20261201-000000" / "cells").mkdir(parents=True)
    (root / "runs" / "20261201-000000" / "results.jsonl").write_text('{"cell": 1}\n')
    (root / "benchmarks" / "tasks" / "t1" / "prompt.md").write_text("Do it again.\n")
    (root / "fixtures" / "repo.txt").write_text("seed\n")
    assert arm.content_hash() == before
    # Without the benchmark's folders set apart, the same records would have moved it.
    assert make_arm("mine", [("plugin", str(root))], root, "pyproject.toml").content_hash() != before
    # The plugin's own files still count.
    (root / "skills" / "tidy" / "SKILL.md").write_text("---\nname: tidy\n---\nKeep it very tidy.\n")
    assert arm.content_hash() != before


def test_git_bytecode_caches_and_a_virtual_environment_in_the_plugin_are_not_hashed(tmp_path: Path) -> None:
    root = plugin_repo(tmp_path / "repo")
    arm = make_arm("mine", [("plugin", str(root))], root, "pyproject.toml")
    before = arm.content_hash()
    venv = root / ".venv"
    (venv / "lib" / "site-packages" / "pkg").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "lib" / "site-packages" / "pkg" / "__init__.py").write_text("x = 1\n")
    (root / ".git" / "objects").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "conftest.cpython-311.pyc").write_bytes(b"\x00\x01")
    (root / ".pytest_cache" / "v" / "cache").mkdir(parents=True)
    (root / ".pytest_cache" / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n")
    (root / ".pytest_cache" / "v" / "cache" / "nodeids").write_text("[]\n")
    assert arm.content_hash() == before
    # A folder named like one but without pyvenv.cfg is the plugin's.
    (root / "env").mkdir()
    (root / "env" / "settings.json").write_text("{}\n")
    assert arm.content_hash() != before


def test_apart_from_sets_apart_only_folders_inside_each_plugin(tmp_path: Path) -> None:
    root = plugin_repo(tmp_path / "repo")
    elsewhere = REPO / "examples" / "careful-plugin"
    arms = apart_from(
        [
            make_arm("mine", [("plugin", ".")], root, "pyproject.toml"),
            make_arm("careful", [("plugin", str(elsewhere))], root, "pyproject.toml"),
            make_arm("terse", [("prompt", "Be brief.")], root, "pyproject.toml"),
        ],
        [*own(root), tmp_path / "outside"],
    )
    assert [p.apart for a in arms for p in a.parts] == [tuple(p.resolve() for p in own(root)), (), ()]
    # A plugin with nothing of the benchmark in it hashes as it always did.
    assert (
        arms[1].content_hash()
        == make_arm("careful", [("plugin", str(elsewhere))], elsewhere, "pyproject.toml").content_hash()
    )


def test_resume_rebuilds_a_root_plugin_with_the_same_hash_after_records_were_written(
    tmp_path: Path,
) -> None:
    root = plugin_repo(tmp_path / "repo")
    (arm,) = apart_from([make_arm("mine", [("plugin", ".")], root, "pyproject.toml")], own(root))
    info = RunInfo.from_json({"arms": [arm.describe()]})
    run_dir = RunDir(root / "runs" / "20261201-000000")
    (run_dir.path / "cells" / "t1-mine-offline-reference-r0").mkdir(parents=True)
    (run_dir.path / "results.jsonl").write_text('{"cell": 1}\n')
    (again,) = arms_of(info, "--resume", run_dir, own(root))
    assert again.content_hash() == arm.content_hash()
    # A change to the plugin itself is still refused.
    (root / "skills" / "tidy" / "SKILL.md").write_text("changed\n")
    with pytest.raises(PonybenchError, match="arm 'mine' changed since that run"):
        arms_of(info, "--resume", run_dir, own(root))


def test_a_skill_at_the_repository_root_carries_neither_the_tasks_nor_the_runs(tmp_path: Path) -> None:
    """skill-creator's usual layout: SKILL.md at the repository's root, the benchmark beside it.
    The skills arm of that folder is the skill: a run's records do not move its hash, and a cell's
    copy of it holds no task (nor its references) and no run dir."""
    root = plugin_repo(tmp_path / "repo")
    (root / "SKILL.md").write_text("---\nname: repo-skill\ndescription: Does the repo's thing.\n---\nBody.\n")
    (arm,) = apart_from([make_arm("skill", [("skills", ".")], root, "pyproject.toml")], own(root))
    assert arm.parts[0].apart == tuple(p.resolve() for p in own(root))
    before = arm.content_hash()
    (root / "runs" / "20261201-000000").mkdir(parents=True)
    (root / "runs" / "20261201-000000" / "results.jsonl").write_text('{"cell": 1}\n')
    (root / "benchmarks" / "tasks" / "t1" / "prompt.md").write_text("Do it again.\n")
    assert arm.content_hash() == before
    (root / "SKILL.md").write_text("---\nname: repo-skill\ndescription: Does it better.\n---\nBody.\n")
    assert arm.content_hash() != before
    ws, home = tmp_path / "ws", tmp_path / "home"
    ws.mkdir()
    lay_arm(arm, ws, home)
    laid = {p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_file()}
    assert f".claude/skills/{root.name}/SKILL.md" in laid
    assert f".claude/skills/{root.name}/skills/tidy/SKILL.md" in laid
    assert not [p for p in laid if "/benchmarks/" in p or "/runs/" in p or "/fixtures" in p], laid
