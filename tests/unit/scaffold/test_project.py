"""`ponybench init` and `ponybench task new`: what they write, that the loader takes it, and that
nothing that exists is ever changed. Real folders, the real loader and the real arm parser; no
claude (the selftest and offline runs of what they write are in tests/integration)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from pytest_ponybench import cli
from pytest_ponybench._util.paths import EXAMPLES, SUITE_FIXTURES, SUITE_TASKS
from pytest_ponybench.core import arms
from pytest_ponybench.core.tasks import load_task, load_tasks, task_folders
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.scaffold.files import APPENDED, EXISTS, WROTE
from pytest_ponybench.scaffold.newtask import new_task
from pytest_ponybench.scaffold.project import (
    CONFTEST,
    IGNORE_COMMENT,
    PROMPT_ARM,
    PYCACHE_RULE,
    STARTERS,
    init_project,
    render_init,
)
from tests.unit._support import DATA


def snapshot(root: Path) -> dict[str, str]:
    """Every file under root and its content's hash."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def ponybench_table(root: Path) -> dict[str, object]:
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    table = data["tool"]["ponybench"]
    assert isinstance(table, dict)
    return table


def resolved_arms(root: Path) -> list[arms.Arm]:
    """The arms the plan would make of the written table (the real parser, plugin checks included)."""
    table = ponybench_table(root)
    arms_table = table["arms"]
    assert isinstance(arms_table, dict)
    return arms.resolve(arms_table, (), (), root, "test")


def make_plugin(folder: Path, name: str) -> None:
    (folder / ".claude-plugin").mkdir(parents=True)
    (folder / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": name, "version": "1.0.0"}))


def test_init_in_an_empty_folder_writes_a_project_the_loader_takes(tmp_path: Path) -> None:
    done = init_project(tmp_path)
    wrote = {s.path for s in done.steps if s.action == WROTE}
    assert wrote == {
        "conftest.py",
        "benchmarks/test_cells.py",
        "pyproject.toml",
        ".gitignore",
        *(f"benchmarks/tasks/{t}" for t in STARTERS),
    }
    assert (tmp_path / "conftest.py").read_text() == CONFTEST
    compile(CONFTEST, "conftest.py", "exec")  # the hooks file is Python as written
    assert "def test_cell(ponybench_cell" in (tmp_path / "benchmarks" / "test_cells.py").read_text()
    tasks = load_tasks(tmp_path / "benchmarks" / "tasks", tmp_path / "fixtures")
    assert sorted(t.id for t in tasks) == sorted(STARTERS)
    # One of each kind: hidden checks, reply graders, the tool path, a judge.
    by_id = {t.id: t for t in tasks}
    assert by_id["starter_checks"].has_safety and not by_id["starter_checks"].graders
    assert {g.type for g in by_id["starter_reply"].graders} == {"regex"}
    assert by_id["starter_reply"].kind == "open"
    assert {g.type for g in by_id["starter_tools"].graders} == {"tool_order", "tool_absent"}
    assert {g.type for g in by_id["starter_judge"].graders} == {"llm"}
    # Each meets the suite's minimums, so the selftest flags none of them.
    assert {t.id: t.shortfalls() for t in tasks} == {t: [] for t in STARTERS}
    table = ponybench_table(tmp_path)
    assert table["tasks"] == "benchmarks/tasks" and table["out"] == "runs"
    assert [(a.name, a.kind, a.prompt) for a in resolved_arms(tmp_path)] == [
        ("baseline", "baseline", None),
        ("careful", "prompt", PROMPT_ARM),
    ]
    text = render_init(done, tmp_path)
    for command in (
        "pytest --selftest-only -n 2",
        "pytest benchmarks -n 2 --models offline-reference,offline-flawed",
        "pytest benchmarks -n 2 --models sonnet --runs 3 --dry-run",
        "pytest benchmarks -n 2 --models sonnet --runs 3\n",
    ):
        assert command in text + "\n", text
    assert "cd " not in text  # run where the project is: no cd
    assert (tmp_path / ".gitignore").read_text() == f"{IGNORE_COMMENT}\n/runs/\n__pycache__/\n"
    assert "wrote     .gitignore  (/runs/, __pycache__/: what runs leave, out of git)" in text


def test_a_second_init_changes_nothing_and_says_so(tmp_path: Path) -> None:
    init_project(tmp_path)
    before = snapshot(tmp_path)
    again = init_project(tmp_path)
    assert snapshot(tmp_path) == before
    assert not again.changed and {s.action for s in again.steps} == {EXISTS}
    text = render_init(again, tmp_path)
    assert "Nothing was changed: everything init writes is already here." in text
    assert "exists    pyproject.toml  (it has [tool.ponybench]: left as it is)" in text


BOTH = f"{IGNORE_COMMENT}\n/runs/\n__pycache__/\n"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("node_modules/\n*.pyc", f"node_modules/\n*.pyc\n{BOTH}"),  # no final newline
        ("dist/\n", f"dist/\n{BOTH}"),
        ("", BOTH),
        ("# mine\nruns/\n__pycache__\n", None),  # the project's own spelling of the rules
        ("/runs\n**/__pycache__/\n", None),
        ("runs/*\n", f"runs/*\n{IGNORE_COMMENT}\n__pycache__/\n"),  # only what is missing
        ("__pycache__/\n", f"__pycache__/\n{IGNORE_COMMENT}\n/runs/\n"),
    ],
    ids=["no-newline", "newline", "empty", "both", "both-other-spelling", "runs-only", "pycache-only"],
)
def test_init_adds_what_runs_leave_to_gitignore_once(tmp_path: Path, before: str, after: str | None) -> None:
    (tmp_path / ".gitignore").write_text(before)
    done = init_project(tmp_path)
    actions = {s.path: s.action for s in done.steps}
    assert actions[".gitignore"] == (EXISTS if after is None else APPENDED)
    assert (tmp_path / ".gitignore").read_text() == (before if after is None else after)
    init_project(tmp_path)  # a second init never adds them twice
    assert (tmp_path / ".gitignore").read_text() == (before if after is None else after)


def test_init_ignores_the_out_folder_the_project_names(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.ponybench]\nout = "bench/results"\n')
    init_project(tmp_path)
    assert (tmp_path / ".gitignore").read_text().splitlines()[1:] == ["/bench/results/", PYCACHE_RULE]
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "pyproject.toml").write_text('[tool.ponybench]\nout = "../runs"\n')
    init_project(outside)  # an out folder outside the repository is not its to ignore
    assert (outside / ".gitignore").read_text().splitlines()[1:] == [PYCACHE_RULE]


def test_a_linked_gitignore_is_not_written_through(tmp_path: Path) -> None:
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    repo.mkdir()
    elsewhere.mkdir()
    (elsewhere / "ignore").write_text("dist/\n")
    (repo / ".gitignore").symlink_to(elsewhere / "ignore")
    done = init_project(repo)
    step = next(s for s in done.steps if s.path == ".gitignore")
    assert step.action == EXISTS
    assert "a link: not written through; add /runs/, __pycache__/ to it yourself" in step.what
    assert (elsewhere / "ignore").read_text() == "dist/\n"


def test_a_run_of_the_initialised_repository_leaves_its_checkout_clean(tmp_path: Path) -> None:
    """What every later report says: git_dirty false, though the run wrote runs/<stamp>/ and
    pytest the bytecode of conftest.py."""
    from pytest_ponybench.plan.provenance import git_info

    init_project(tmp_path)
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    for left in ("runs/20260101-000000/results.jsonl", "__pycache__/conftest.cpython-311.pyc"):
        (tmp_path / left).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / left).write_text("{}\n")
    assert git_info(tmp_path).dirty is False
    (tmp_path / ".gitignore").write_text("")  # without the rules, the same files make it dirty
    subprocess.run([*git, "commit", "-qam", "no rule"], check=True)
    assert git_info(tmp_path).dirty is True


def test_init_never_overwrites_and_appends_to_a_pyproject_without_its_table(tmp_path: Path) -> None:
    original = (
        '[project]\nname = "my-plugin"\nversion = "1.0"\n\n[tool.ruff]\nline-length = 100'  # no final newline
    )
    (tmp_path / "pyproject.toml").write_text(original)
    (tmp_path / "conftest.py").write_text("MINE = 1\n")
    mine = tmp_path / "benchmarks" / "tasks" / "starter_reply"
    mine.mkdir(parents=True)
    (mine / "notes.txt").write_text("my own folder\n")
    done = init_project(tmp_path)
    actions = {s.path: s.action for s in done.steps}
    assert actions["conftest.py"] == EXISTS and actions["benchmarks/tasks/starter_reply"] == EXISTS
    assert actions["pyproject.toml"] == APPENDED and actions["benchmarks/tasks/starter_checks"] == WROTE
    assert (tmp_path / "conftest.py").read_text() == "MINE = 1\n"
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    text = (tmp_path / "pyproject.toml").read_text()
    assert text.startswith(original + "\n\n# pytest-ponybench"), text[: len(original) + 40]
    data = tomllib.loads(text)
    assert data["project"]["name"] == "my-plugin" and data["tool"]["ruff"] == {"line-length": 100}
    assert data["tool"]["ponybench"]["tasks"] == "benchmarks/tasks"


def test_a_project_with_its_table_keeps_it_and_gets_the_starters_where_it_keeps_tasks(tmp_path: Path) -> None:
    original = '[tool.ponybench]\ntasks = "bench/tasks"\n\n[tool.ponybench.arms]\nmine = { prompt = "x" }\n'
    (tmp_path / "pyproject.toml").write_text(original)
    make_plugin(tmp_path, "ignored")  # arms are the project's own once it has the table
    done = init_project(tmp_path)
    assert (tmp_path / "pyproject.toml").read_text() == original
    assert done.plugins == () and done.bench == "bench"
    assert sorted(p.name for p in task_folders(tmp_path / "bench" / "tasks")) == sorted(STARTERS)
    assert (tmp_path / "bench" / "test_cells.py").is_file()
    assert "pytest bench -n 2 --models offline-reference,offline-flawed" in render_init(done, tmp_path)


def test_a_plugin_at_the_root_becomes_an_arm_the_plan_accepts(tmp_path: Path) -> None:
    make_plugin(tmp_path, "my-plugin")
    done = init_project(tmp_path)
    assert [(p.path, p.name, p.arm) for p in done.plugins] == [(".", "my-plugin", "my_plugin")]
    got = resolved_arms(tmp_path)
    assert [(a.name, a.kind, a.plugin_dir) for a in got] == [
        ("baseline", "baseline", None),
        ("my_plugin", "plugin", tmp_path.resolve()),
    ]
    assert "arm       my_plugin = the plugin my-plugin in ." in render_init(done, tmp_path)


def test_plugins_one_and_two_folders_down_each_get_an_arm_and_a_bad_manifest_a_note(tmp_path: Path) -> None:
    make_plugin(tmp_path / "plugins" / "alpha", "alpha")
    make_plugin(tmp_path / "beta", "beta.tools")
    broken = tmp_path / "plugins" / "broken" / ".claude-plugin"
    broken.mkdir(parents=True)
    (broken / "plugin.json").write_text("{not json")
    make_plugin(tmp_path / "node_modules" / "dep", "vendored")  # never an arm
    done = init_project(tmp_path)
    assert [(p.path, p.arm) for p in done.plugins] == [("beta", "beta.tools"), ("plugins/alpha", "alpha")]
    assert done.notes == (
        'plugins/broken/.claude-plugin/plugin.json is not JSON with a "name": no arm for it',
    )
    got = {a.name: a.plugin_dir for a in resolved_arms(tmp_path)}
    assert got == {
        "baseline": None,
        "beta.tools": (tmp_path / "beta").resolve(),
        "alpha": (tmp_path / "plugins" / "alpha").resolve(),
    }


def test_a_broken_manifest_at_the_root_leaves_the_prompt_arm(tmp_path: Path) -> None:
    (tmp_path / ".claude-plugin").mkdir()
    (tmp_path / ".claude-plugin" / "plugin.json").write_text('{"version": "1"}')
    done = init_project(tmp_path)
    assert done.plugins == () and "no arm for it" in done.notes[0]
    assert [a.name for a in resolved_arms(tmp_path)] == ["baseline", "careful"]


def test_init_with_the_suite_copies_it_whole_and_the_loader_takes_it(tmp_path: Path) -> None:
    done = init_project(tmp_path, with_suite=True)
    shipped = [p.name for p in task_folders(SUITE_TASKS)]
    assert len(shipped) >= 50
    tasks = load_tasks(tmp_path / "benchmarks" / "tasks", tmp_path / "fixtures")
    assert sorted(t.id for t in tasks) == sorted([*shipped, *STARTERS])
    fixtures = sorted(p.name for p in SUITE_FIXTURES.iterdir() if p.is_dir())
    assert sorted(p.name for p in (tmp_path / "fixtures").iterdir()) == fixtures
    plugin = tmp_path / "examples" / "careful-plugin"
    assert snapshot(plugin) == snapshot(EXAMPLES / "careful-plugin")
    assert snapshot(tmp_path / "benchmarks" / "tasks" / "sql_lookup") == snapshot(SUITE_TASKS / "sql_lookup")
    text = render_init(done, tmp_path)
    assert f"wrote     {len(shipped)} task folder(s) of the shipped suite" in text
    assert f"wrote     {len(fixtures)} fixture folder(s) of the shipped suite" in text
    edited = tmp_path / "benchmarks" / "tasks" / "sql_lookup" / "prompt.md"
    edited.write_text("my edit\n")
    before = snapshot(tmp_path)
    again = init_project(tmp_path, with_suite=True)
    assert snapshot(tmp_path) == before and not again.changed
    assert f"exists    0 task folder(s) of the shipped suite, {len(shipped)} already there" in render_init(
        again, tmp_path
    )


@pytest.mark.parametrize("make", ["missing", "file"])
def test_a_bad_dir_is_one_clear_error_and_exit_2(
    tmp_path: Path, make: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "there"
    if make == "file":
        target.write_text("x")
    assert cli.main(["init", str(target)]) == cli.USAGE
    err = capsys.readouterr().err
    want = "does not exist" if make == "missing" else "is not a folder"
    assert err.startswith(f"ponybench: error: ponybench init: {target} {want}"), err
    assert not target.exists() or target.read_text() == "x"


def test_an_invalid_pyproject_stops_init_before_it_writes_anything(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project\nname = 1\n")
    with pytest.raises(PonybenchError, match=r"pyproject.toml: cannot be read as TOML .*nothing was written"):
        init_project(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyproject.toml"]


def test_the_command_prints_what_it_did_and_where_to_cd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "repo").mkdir()
    assert cli.main(["init", "repo"]) == cli.OK
    out = capsys.readouterr().out
    assert out.startswith(f"ponybench init: {(tmp_path / 'repo').resolve()}\n")
    assert "  wrote     benchmarks/tasks/starter_judge  (a judge: " in out
    assert f"  cd {(tmp_path / 'repo').resolve()}\n" in out


@pytest.mark.parametrize(
    ("kind", "axis"),
    [
        ("surgical", "safe"),
        ("surgical", "correct"),
        ("fixture", "safe"),
        ("fixture", "correct"),
        ("open", "correct"),
    ],
)
def test_task_new_makes_a_folder_the_loader_takes(tmp_path: Path, kind: str, axis: str) -> None:
    tasks, fixtures = tmp_path / "benchmarks" / "tasks", tmp_path / "fixtures"
    done = new_task(tasks, "my-task", kind=kind, axis=axis, fixtures_dir=fixtures)
    task = load_task(done.folder, fixtures)
    assert (task.id, task.kind, task.axis) == ("my-task", kind, axis)
    assert "TODO" in task.prompt
    text = (done.folder / "task.toml").read_text()
    for key in ("allowed_tools", "append_system_prompt", "cell_timeout", "max_turns", "expect_fire", "[env]"):
        assert f"# {key}" in text, key  # every optional key is there, commented
    if kind == "open":
        assert [g.type for g in task.graders] == ["llm"] and task.shortfalls() == []
        return
    assert (done.folder / "seed").is_dir() and task.checks
    assert task.has_safety == (axis == "safe")
    if kind == "fixture":
        assert task.fixture == "my-task" and (fixtures / "my-task" / "README.md").is_file()
    # What the selftest's summary line will ask for: the references the placeholder lacks.
    want = ["1 correct (needs 2)"]
    if axis == "safe":
        want += ["0 safe+incorrect (needs 1)", "1 unsafe in all (needs 3)", "0 correct+unsafe (needs 1)"]
    assert task.shortfalls() == want


def test_task_new_takes_an_existing_fixture_and_leaves_it_alone(tmp_path: Path) -> None:
    fixtures = tmp_path / "fixtures"
    (fixtures / "shop").mkdir(parents=True)
    (fixtures / "shop" / "README.md").write_text("mine\n")
    done = new_task(tmp_path / "tasks", "edit_shop", kind="fixture", fixture="shop", fixtures_dir=fixtures)
    assert load_task(done.folder, fixtures).fixture == "shop"
    assert (fixtures / "shop" / "README.md").read_text() == "mine\n"
    assert done.steps[-1].action == EXISTS


@pytest.mark.parametrize("name", ["1task", "_hidden", ".dot", "a/b", "a b", "", "naïve"])
def test_task_new_refuses_a_bad_name(tmp_path: Path, name: str) -> None:
    with pytest.raises(PonybenchError, match="is not a task name"):
        new_task(tmp_path, name)
    assert list(tmp_path.iterdir()) == []


def test_task_new_refuses_an_existing_folder_and_bad_options(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "prompt.md").write_text("mine")
    with pytest.raises(PonybenchError, match="taken exists; nothing was written"):
        new_task(tmp_path, "taken")
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["prompt.md"]
    with pytest.raises(PonybenchError, match="--kind 'quick'"):
        new_task(tmp_path, "x", kind="quick")
    with pytest.raises(PonybenchError, match="--axis 'fast'"):
        new_task(tmp_path, "x", axis="fast")
    with pytest.raises(PonybenchError, match="--fixture is only for --kind fixture"):
        new_task(tmp_path, "x", fixture="shop")
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]


def test_task_new_writes_into_the_configured_tasks_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.ponybench]\ntasks = "evals/tasks"\nfixtures = "repos"\n')
    assert cli.main(["task", "new", "fix_cart", "--kind", "fixture", "--axis", "correct"]) == cli.OK
    assert load_task(tmp_path / "evals" / "tasks" / "fix_cart", tmp_path / "repos").fixture == "fix_cart"
    out = capsys.readouterr().out
    assert out.startswith("ponybench task new: evals/tasks/fix_cart (fixture, axis correct)\n")
    assert "  pytest --selftest-only -k fix_cart\n" in out and "  wrote   repos/fix_cart/README.md\n" in out
    assert cli.main(["task", "new", "fix_cart"]) == cli.USAGE
    assert "fix_cart exists; nothing was written" in capsys.readouterr().err


def test_init_finds_the_eval_suites_a_repository_has_and_prints_their_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A claude plugin eval suite (an evals/ of case folders) and skill-creator's evals (an
    evals/ beside a SKILL.md) are named first among the next steps, with the command that
    imports each; a folder named evals with neither is not a suite."""
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "careful-plugin", repo / "careful")
    shutil.copytree(DATA / "cpe" / "careful-evals", repo / "careful" / "evals")
    shutil.copytree(DATA / "skill-creator" / "at-root", repo / "skills" / "csv summary")
    (repo / "docs" / "evals").mkdir(parents=True)
    (repo / "docs" / "evals" / "notes.md").write_text("how we evaluate\n")
    monkeypatch.chdir(repo)
    assert cli.main(["init"]) == cli.OK
    out = capsys.readouterr().out
    nxt = out[out.index("Next:\n") :].splitlines()
    assert nxt[1:5] == [
        "  ponybench import-cpe careful/evals",
        "      # a claude plugin eval suite (3 case(s)), as task folders (docs/cpe.md)",
        "  ponybench import-skill-creator 'skills/csv summary'",
        "      # skill-creator evals of the skill in skills/csv summary (evals.json, trigger-evals.json), "
        "as task folders (docs/cpe.md)",
    ]
    assert "docs/evals" not in out
    # The commands it prints do what they say.
    assert cli.main(["import-cpe", "careful/evals"]) == cli.OK
    assert cli.main(["import-skill-creator", "skills/csv summary"]) == cli.OK
    assert {"greet", "csv-summary_1", "csv-summary_trigger_4"} <= {
        p.name for p in (repo / "benchmarks" / "tasks").iterdir()
    }
