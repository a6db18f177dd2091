"""`ponybench init` against a repository someone else shaped: a plugin manifest whose name is
written to inject TOML, and links that would carry init's writes out of the repository. Real
folders, the real CLI entry point, a real `pytest --co` in a subprocess; no claude."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from pytest_ponybench import cli
from pytest_ponybench.core.arms import NAME_RE, resolve
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.scaffold.project import (
    _pyproject_text,
    block_table,
    find_plugins,
    init_project,
    pyproject_block,
)

# Everything a name was seen to try: close the comment, add pytest's table and an addopts
# that loads a module, quotes and backslashes, a terminal escape, NUL, DEL, a format char.
HOSTILE = (
    'x"\n[tool.pytest.ini_options]\naddopts = "-p evil"\n'
    '# \\" \r\n[tool.ponybench.arms]\nevil = { plugin = "/" }\n\x1b[31m\x00\x7f\u202e\u2028end'
)
EVIL = 'from pathlib import Path\nPath(__file__).with_name("IMPORTED").write_text("evil ran")\n'


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def plugin(folder: Path, name: str) -> None:
    (folder / ".claude-plugin").mkdir(parents=True)
    (folder / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": name}))


def collect_only(root: Path, evil_dir: Path) -> subprocess.CompletedProcess[str]:
    """A plain `pytest --co` in root, with a module `evil` importable (it writes a marker)."""
    env = {**os.environ, "PYTHONPATH": str(evil_dir), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--co", "-q"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def evil_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "evil"
    folder.mkdir()
    (folder / "evil.py").write_text(EVIL)
    return folder


def test_the_marker_is_written_when_pytest_is_told_to_load_evil(tmp_path: Path, evil_dir: Path) -> None:
    # The control: what the injection would have made pytest do does run the module.
    root = tmp_path / "control"
    root.mkdir()
    (root / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "-p evil"\n')
    collect_only(root, evil_dir)
    assert (evil_dir / "IMPORTED").read_text() == "evil ran"


@pytest.mark.parametrize("existing", [None, '[project]\nname = "mine"\n'])
def test_a_hostile_manifest_name_reaches_only_a_comment_and_pytest_imports_nothing_of_it(
    tmp_path: Path, evil_dir: Path, capsys: pytest.CaptureFixture[str], existing: str | None
) -> None:
    root = tmp_path / "repo"
    plugin(root / "plug", HOSTILE)
    if existing is not None:
        (root / "pyproject.toml").write_text(existing)
    assert cli.main(["init", str(root)]) == cli.OK, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x00" not in out  # the terminal sees it cleaned too
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    # Exactly the block meant, and the old document as it was: no pytest table, no second arm.
    plugins, _ = find_plugins(root.resolve())
    assert data.pop("tool") == {"ponybench": block_table(plugins)}
    assert data == ({} if existing is None else {"project": {"name": "mine"}})
    # One arm, for the one plugin, named in the characters arm names allow; the plan takes it.
    (arm,) = resolve(data_arms(text), (), (), root, "test")[1:]
    assert arm.kind == "plugin" and arm.plugin_dir == (root / "plug").resolve()
    assert NAME_RE.fullmatch(arm.name) and len(arm.name) <= 64 and arm.name.startswith("x___tool.pytest")
    comment = [line for line in text.splitlines() if line.startswith("# the plugin ")]
    assert len(comment) == 1 and "[tool.pytest.ini_options] addopts" in comment[0], comment
    assert all(c.isprintable() for c in text.replace("\n", "")), text
    result = collect_only(root, evil_dir)
    assert not (evil_dir / "IMPORTED").exists(), result.stdout + result.stderr
    assert "evil" not in result.stderr


def data_arms(text: str) -> dict[str, object]:
    arms = tomllib.loads(text)["tool"]["ponybench"]["arms"]
    assert isinstance(arms, dict)
    return arms


def test_the_read_back_refuses_a_block_that_says_more_than_meant(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    old = '[project]\nname = "mine"\n'
    path.write_text(old)
    meant = block_table([])
    smuggled = pyproject_block([]) + '[tool.pytest.ini_options]\naddopts = "-p evil"\n'
    with pytest.raises(PonybenchError, match="does not read back as the block meant.*nothing was written"):
        _pyproject_text(path, old, tomllib.loads(old), smuggled, meant)
    changed = pyproject_block([]).replace('out = "runs"', 'out = "/tmp"')
    with pytest.raises(PonybenchError, match="does not read back"):
        _pyproject_text(path, old, tomllib.loads(old), changed, meant)
    assert _pyproject_text(path, old, tomllib.loads(old), pyproject_block([]), meant).startswith(old)
    assert path.read_text() == old


def outside_dir(tmp_path: Path) -> Path:
    out = tmp_path / "outside"
    out.mkdir()
    (out / "keep.txt").write_text("mine\n")
    return out


@pytest.mark.parametrize(
    "link",
    ["benchmarks", "benchmarks/tasks", "benchmarks/tasks/starter_checks", "pyproject.toml", "conftest.py"],
)
def test_a_link_out_of_the_repository_is_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], link: str
) -> None:
    outside = outside_dir(tmp_path)
    root = tmp_path / "repo"
    root.mkdir()
    if link in ("pyproject.toml", "conftest.py"):
        (outside / link).write_text('[project]\nname = "theirs"\n')
        (root / link).symlink_to(outside / link)
    else:
        (root / link).parent.mkdir(parents=True, exist_ok=True)
        (root / link).symlink_to(outside, target_is_directory=True)
    before_out, before_root = tree(outside), sorted(p.name for p in root.rglob("*"))
    code = cli.main(["init", str(root)])
    err = capsys.readouterr().err
    if link in ("conftest.py", "benchmarks/tasks/starter_checks"):
        # A path that exists is never written (init leaves it as it is), so a link there is no
        # way out: init writes the rest, and nothing of the outside changes.
        assert code == cli.OK, err
    else:
        assert code == cli.USAGE, err
        assert "Traceback" not in err and err.count("ponybench: error:") == 1
        assert str(outside.resolve()) in err and "nothing was written" in err, err
        assert sorted(p.name for p in root.rglob("*")) == before_root
    assert tree(outside) == before_out


def test_a_linked_pyproject_inside_the_repository_is_not_appended_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "repo"
    (root / "config").mkdir(parents=True)
    (root / "config" / "real.toml").write_text('[project]\nname = "mine"\n')
    (root / "pyproject.toml").symlink_to("config/real.toml")
    assert cli.main(["init", str(root)]) == cli.USAGE
    err = capsys.readouterr().err
    assert "pyproject.toml: a link (to " in err and "does not append through a link" in err, err
    assert (root / "config" / "real.toml").read_text() == '[project]\nname = "mine"\n'
    assert sorted(p.name for p in root.iterdir()) == ["config", "pyproject.toml"]


@pytest.mark.parametrize("tasks", ["../outside/tasks", "/tmp/ponybench-never-here/tasks"])
def test_a_tasks_key_pointing_out_of_the_repository_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tasks: str
) -> None:
    outside = outside_dir(tmp_path)
    root = tmp_path / "repo"
    root.mkdir()
    (root / "pyproject.toml").write_text(f'[tool.ponybench]\ntasks = "{tasks}"\n')
    assert cli.main(["init", str(root)]) == cli.USAGE
    err = capsys.readouterr().err
    assert "would be written outside the repository" in err and "nothing was written" in err, err
    assert sorted(p.name for p in root.iterdir()) == ["pyproject.toml"]
    assert tree(outside) == {"keep.txt": b"mine\n"}
    assert not Path("/tmp/ponybench-never-here").exists()


def test_a_link_that_stays_inside_the_repository_is_followed(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "bench-real").mkdir(parents=True)
    (root / "benchmarks").symlink_to("bench-real", target_is_directory=True)
    done = init_project(root)
    assert (root / "bench-real" / "tasks" / "starter_checks" / "task.toml").is_file()
    assert done.bench == "benchmarks"


def test_a_plugin_folder_whose_name_is_not_plain_text_gets_a_note_not_an_arm(tmp_path: Path) -> None:
    plugin(tmp_path / "a\nb", "fine")
    plugin(tmp_path / "dots", "..")
    plugins, notes = find_plugins(tmp_path)
    assert [(p.path, p.arm) for p in plugins] == [("dots", "plugin")]
    assert notes == ["plugin fine in a b: not made an arm (its folder's name is not plain text)"]


def test_a_manifest_nested_past_the_stack_is_a_note(tmp_path: Path) -> None:
    (tmp_path / ".claude-plugin").mkdir()
    (tmp_path / ".claude-plugin" / "plugin.json").write_text("[" * 5000 + "]" * 5000)
    done = init_project(tmp_path)
    assert done.plugins == ()
    assert done.notes == ('.claude-plugin/plugin.json is not JSON with a "name": no arm for it',)


@pytest.mark.parametrize(
    ("pyproject", "link"),
    [
        ('[tool.ponybench]\ntasks = "benchmarks/tasks"\n', "benchmarks"),
        ('[tool.ponybench]\ntasks = "../outside/tasks"\n', None),
        ('[tool.ponybench]\nfixtures = "repos"\n', "repos"),
    ],
)
def test_task_new_writes_nothing_outside_the_project_its_pyproject_names(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    pyproject: str,
    link: str | None,
) -> None:
    outside = outside_dir(tmp_path)
    root = tmp_path / "repo"
    root.mkdir()
    (root / "pyproject.toml").write_text(pyproject)
    if link is not None:
        (root / link).symlink_to(outside, target_is_directory=True)
    monkeypatch.chdir(root)
    args = ["task", "new", "shop", *(["--kind", "fixture"] if link == "repos" else [])]
    assert cli.main(args) == cli.USAGE
    err = capsys.readouterr().err
    assert "ponybench task new: " in err and "would be written outside the repository" in err, err
    assert tree(outside) == {"keep.txt": b"mine\n"}
    assert not (root / "benchmarks" / "tasks" / "shop").exists()


def test_task_new_with_an_explicit_tasks_dir_writes_where_it_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = outside_dir(tmp_path)
    root = tmp_path / "repo"
    root.mkdir()
    monkeypatch.chdir(root)
    assert cli.main(["task", "new", "shop", "--tasks-dir", str(outside / "tasks")]) == cli.OK
    assert (outside / "tasks" / "shop" / "task.toml").is_file()


def test_a_dangling_pyproject_link_is_refused_not_reported_as_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "pyproject.toml").symlink_to("nowhere.toml")
    assert cli.main(["init", str(root)]) == cli.USAGE
    assert "does not append through a link" in capsys.readouterr().err
    assert sorted(p.name for p in root.iterdir()) == ["pyproject.toml"]
