"""Task folder loading: every malformed folder gets an error naming the folder, file and key."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_ponybench.core.tasks import (
    DEFAULT_CHECK_TIMEOUT,
    Expect,
    Task,
    TaskError,
    load_task,
    load_tasks,
    select,
)
from tests.support import REPO
from tests.unit._support.tasks import GOOD_TOML, add_ref, problems, the_problem, write_task

SUITE = REPO / "benchmarks" / "tasks"
FIXTURES = REPO / "fixtures"


# --- one problem at a time --------------------------------------------------------------------


def test_good_minimal_task_loads_with_its_fields(tmp_path: Path) -> None:
    folder = write_task(
        tmp_path / "add_two",
        checks={
            "test_correct_add.py": "def test_add():\n    pass\n",
            "test_safe_add.py": "def test_safe():\n    pass\n",
            "conftest.py": "",  # a helper, not a check: allowed
            "data/cases.json": "[]",
        },
    )
    (folder / "checks" / "__pycache__").mkdir()
    (folder / "checks" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    task = load_task(folder)
    assert task.id == "add_two"
    assert task.path == folder.resolve()
    assert (task.kind, task.file, task.axis, task.fixture, task.fixture_path) == (
        "surgical",
        "mod.py",
        "correct",
        None,
        None,
    )
    assert task.prompt == "Write add(a, b)."
    assert task.tags == ("quick", "py")
    assert task.timeout == 5.0 and isinstance(task.timeout, float)
    assert (task.description, task.max_turns) == ("Add two numbers", 4)
    assert task.seed == {"README.md": b"seed\n"}
    assert task.good == {"mod.py": b"def add(a, b):\n    return a + b\n"}
    assert task.bad == {"mod.py": b"def add(a, b):\n    return a - b\n"}
    assert sorted(task.checks) == [
        "conftest.py",
        "data/cases.json",
        "test_correct_add.py",
        "test_safe_add.py",
    ]
    assert task.has_references
    assert task.reference("good") is task.good and task.reference("bad") is task.bad
    with pytest.raises(ValueError, match="'ugly'"):
        task.reference("ugly")
    assert [(r.name, r.expect) for r in task.references] == [
        ("good", Expect(correct=True, safe=True)),
        ("bad", Expect(correct=False, safe=None)),  # the task has safety checks: not declared
    ]
    assert task.scored and task.has_safety


def test_defaults_when_keys_are_left_out(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path / "t", 'file = "mod.py"\n'))
    assert (task.kind, task.axis, task.tags, task.timeout, task.description, task.max_turns) == (
        "surgical",
        "safe",
        (),
        DEFAULT_CHECK_TIMEOUT,
        "",
        None,
    )


def test_content_hash_is_stable_and_follows_the_checks(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t")
    first = load_task(folder).content_hash()
    assert load_task(folder).content_hash() == first
    assert len(first) == 16
    (folder / "checks" / "test_correct_add.py").write_text("def test_add():\n    assert True\n")
    second = load_task(folder).content_hash()
    assert second != first
    (folder / "prompt.md").write_text("Write add(a, b) please.\n")
    assert load_task(folder).content_hash() != second


def test_unreadable_toml(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", 'kind = "surgical\nfile = mod.py\n')
    assert "not valid TOML" in the_problem(folder, "task.toml:", "not valid TOML")


def test_toml_that_is_not_utf8(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t")
    (folder / "task.toml").write_bytes(b'file = "mod\xff.py"\n')
    the_problem(folder, "task.toml:", "not valid TOML")


def test_missing_toml(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t")
    (folder / "task.toml").unlink()
    the_problem(folder, "task.toml:", "missing")


def test_unknown_kind(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", GOOD_TOML.replace('"surgical"', '"refactor"'))
    msg = the_problem(folder, "task.toml:", "key 'kind'")
    assert "'refactor'" in msg and "surgical, fixture, open" in msg


def test_axis_must_be_safe_or_correct(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", GOOD_TOML.replace('axis = "correct"', 'axis = "fast"'))
    msg = the_problem(folder, "task.toml:", "key 'axis'")
    assert "'fast'" in msg and "'safe' or 'correct'" in msg


def test_missing_prompt(tmp_path: Path) -> None:
    the_problem(write_task(tmp_path / "t", prompt=None), "prompt.md:", "missing")


def test_empty_prompt(tmp_path: Path) -> None:
    assert the_problem(write_task(tmp_path / "t", prompt="  \n\n"), "prompt.md:").endswith("empty")


@pytest.mark.parametrize("part", ["good", "bad"])
def test_surgical_task_needs_references(tmp_path: Path, part: str) -> None:
    folder = write_task(tmp_path / "t", good=part != "good", bad=part != "bad")
    the_problem(folder, f"{part}/:", "missing or empty")


def test_surgical_task_needs_checks(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", checks={})
    the_problem(folder, "checks/:", "missing or empty", "test_correct*.py")


def test_empty_reference_folder_counts_as_missing(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", good=False)
    (folder / "good").mkdir()
    the_problem(folder, "good/:", "missing or empty")


def test_good_reference_must_hold_the_deliverable(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", GOOD_TOML.replace('"mod.py"', '"main.py"'))
    the_problem(folder, "good/:", "main.py", "'file'")


def test_fixture_that_does_not_exist(tmp_path: Path) -> None:
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    toml = 'kind = "fixture"\nfixture = "nope"\naxis = "correct"\n'
    folder = write_task(tmp_path / "t", toml)
    msg = the_problem(folder, "task.toml:", "key 'fixture'", "'nope'", fixtures_dir=fixtures)
    assert f"{fixtures}/nope does not exist" in msg


def test_fixture_kind_needs_the_fixture_key(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", 'kind = "fixture"\naxis = "correct"\n')
    the_problem(folder, "task.toml:", "key 'fixture'", fixtures_dir=tmp_path)


def test_fixture_key_only_for_fixture_tasks(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", GOOD_TOML + 'fixture = "shop"\n')
    the_problem(folder, "task.toml:", "key 'fixture'", "'surgical'")


@pytest.mark.parametrize("name", ["test_other.py", "helpers.py", "check_correct.py"])
def test_check_files_must_be_named_for_their_axis(tmp_path: Path, name: str) -> None:
    folder = write_task(
        tmp_path / "t",
        checks={"test_correct_add.py": "def test_add():\n    pass\n", name: "def test_x():\n    pass\n"},
    )
    the_problem(folder, f"checks/{name}:", "test_correct*.py or test_safe*.py")


def test_the_axis_needs_a_check_that_decides_it(tmp_path: Path) -> None:
    folder = write_task(
        tmp_path / "t",
        GOOD_TOML.replace('"correct"', '"safe"'),
        checks={"test_correct_add.py": "def test_add():\n    pass\n"},
    )
    the_problem(folder, "checks/:", "axis = 'safe'", "test_safe*.py")


def test_surgical_without_file(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", 'kind = "surgical"\naxis = "correct"\n')
    the_problem(folder, "task.toml:", "key 'file'", 'kind = "surgical"')


@pytest.mark.parametrize("file", ["/etc/passwd", "../mod.py", ""])
def test_file_must_stay_inside_the_workspace(tmp_path: Path, file: str) -> None:
    folder = write_task(tmp_path / "t", f'file = "{file}"\naxis = "correct"\n')
    the_problem(folder, "task.toml:", "key 'file' must be a relative path")


def test_unknown_key(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", GOOD_TOML + 'colour = "blue"\nmodel = "x"\n')
    msg = the_problem(folder, "task.toml:", "unknown key(s) colour, model")
    assert "known: allowed_tools, append_system_prompt, axis, cell_timeout, description" in msg


@pytest.mark.parametrize("tags", ['["no-dash"]', '["ok", "two words"]', '"quick"', "[1]"])
def test_tags_must_be_identifiers(tmp_path: Path, tags: str) -> None:
    folder = write_task(tmp_path / "t", GOOD_TOML.replace('["quick", "py"]', tags))
    the_problem(folder, "task.toml:", "key 'tags'", "identifiers")


@pytest.mark.parametrize("timeout", ["0", "-1", "-0.5", '"60"', "true"])
def test_timeout_must_be_positive(tmp_path: Path, timeout: str) -> None:
    folder = write_task(tmp_path / "t", GOOD_TOML.replace("timeout = 5", f"timeout = {timeout}"))
    the_problem(folder, "task.toml:", "key 'timeout'", "positive number")


@pytest.mark.parametrize("turns", ["0", "2.5", "true"])
def test_max_turns_must_be_a_positive_integer(tmp_path: Path, turns: str) -> None:
    folder = write_task(tmp_path / "t", GOOD_TOML.replace("max_turns = 4", f"max_turns = {turns}"))
    the_problem(folder, "task.toml:", "key 'max_turns'")


def test_every_problem_of_one_folder_is_listed(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", 'kind = "wat"\naxis = "fast"\ntimeout = 0\n', prompt="", good=False)
    found = problems(folder)
    for fragment in ("key 'kind'", "key 'axis'", "key 'timeout'", "prompt.md: empty", "good/:"):
        assert any(fragment in p for p in found), (fragment, found)
    assert all(p.startswith(f"{folder}: ") for p in found)


# --- refs/<name>/: references that declare their verdict -------------------------------------


def test_refs_load_with_their_declared_verdict(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t")
    add_ref(folder, "commuted", 'expect = "correct, safe"\nnote = "b + a"\n')
    add_ref(folder, "sloppy", 'expect = "unsafe , incorrect"\n', {"mod.py": "x", "lib/util.py": "y"})
    task = load_task(folder)
    assert [r.name for r in task.references] == ["good", "bad", "commuted", "sloppy"]
    commuted, sloppy = task.refs
    assert (commuted.expect, commuted.note, commuted.where) == (Expect(True, True), "b + a", "refs/commuted/")
    assert sloppy.expect == Expect(correct=False, safe=False) and sloppy.expect.text() == "incorrect, unsafe"
    assert sloppy.files == {"lib/util.py": b"y", "mod.py": b"x"}  # ref.toml is not laid
    assert task.reference("sloppy") is sloppy.files
    before = task.content_hash()
    (folder / "refs" / "sloppy" / "ref.toml").write_text('expect = "incorrect, safe"\n')
    assert load_task(folder).content_hash() != before


@pytest.mark.parametrize(
    "toml, words",
    [
        (None, ["ref.toml: missing", "expect ="]),
        ('expect = "correct"\n', ["key 'expect'", "both axes", "'correct'"]),
        ('expect = "correct, fast"\n', ["key 'expect'", "'correct, fast'"]),
        ('expect = "correct, safe, unsafe"\n', ["key 'expect'"]),
        ("expect = 1\n", ["key 'expect' is missing or not a string"]),
        ('expect = "correct, safe"\nverdict = "x"\n', ["unknown key(s) verdict"]),
        ('expect = "correct, safe\n', ["not valid TOML"]),
    ],
)
def test_a_bad_declaration_names_the_reference_and_key(
    tmp_path: Path, toml: str | None, words: list[str]
) -> None:
    folder = add_ref(write_task(tmp_path / "t"), "r1", toml).parents[1]
    the_problem(folder, "refs/r1/", *words)


def test_a_reference_needs_files_and_a_usable_name(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t")
    add_ref(folder, "empty", 'expect = "correct, safe"\n', {})
    add_ref(folder, "two words", 'expect = "correct, safe"\n')
    add_ref(folder, "good", 'expect = "correct, safe"\n')
    (folder / "refs" / "loose.py").write_text("x")
    found = problems(folder)
    assert any("refs/empty/: has no files besides ref.toml" in p for p in found), found
    assert any("refs/two words/: reference name 'two words'" in p for p in found), found
    assert any("refs/good/: reference name 'good'" in p for p in found), found
    assert any("refs/loose.py: expected a folder per reference" in p for p in found), found


def test_shortfalls_against_the_minimums(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", GOOD_TOML.replace('"correct"', '"safe"'))
    assert load_task(folder).shortfalls() == [
        "1 correct (needs 2)",
        "0 safe+incorrect (needs 1)",
        "1 unsafe in all (needs 3)",
        "0 correct+unsafe (needs 1)",
    ]
    add_ref(folder, "c2", 'expect = "correct, safe"\n')
    add_ref(folder, "wrong", 'expect = "incorrect, safe"\n')
    add_ref(folder, "u1", 'expect = "correct, unsafe"\n')
    add_ref(folder, "u2", 'expect = "incorrect, unsafe"\n')
    task = load_task(folder)
    assert task.shortfalls() == []
    assert [r.expect.kind for r in task.references] == [
        "correct",
        "unsafe",
        "correct",
        "correct+unsafe",
        "unsafe",
        "safe+incorrect",
    ]


def test_without_safety_checks_bad_is_safe_and_incorrect(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", checks={"test_correct_add.py": "def test_add():\n    pass\n"})
    task = load_task(folder)
    assert not task.has_safety
    assert task.references[1].expect == Expect(correct=False, safe=True)
    assert task.shortfalls() == ["1 correct (needs 2)"]


def test_an_open_task_takes_no_references(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "o", 'kind = "open"\n', good=False, bad=False, checks={})
    add_ref(folder, "r", 'expect = "correct, safe"\n')
    the_problem(folder, "refs/:", "open task")


# --- other kinds ----------------------------------------------------------------------------------


def test_open_task_needs_no_references_or_checks(tmp_path: Path) -> None:
    folder = write_task(
        tmp_path / "explain", 'kind = "open"\ntags = ["chat"]\n', good=False, bad=False, checks={}
    )
    task = load_task(folder)
    assert (task.kind, task.file, task.has_references, task.checks) == ("open", None, False, {})
    assert not task.scored and task.references == () and task.shortfalls() == []


def test_fixture_task_loads_and_hashes_its_fixture(tmp_path: Path) -> None:
    fixtures = tmp_path / "fixtures"
    (fixtures / "shop").mkdir(parents=True)
    (fixtures / "shop" / "cart.py").write_text("X = 1\n")
    toml = 'kind = "fixture"\nfixture = "shop"\nfile = "mod.py"\naxis = "correct"\n'
    folder = write_task(tmp_path / "t", toml)
    task = load_task(folder, fixtures)
    assert (task.kind, task.fixture, task.fixture_path) == ("fixture", "shop", (fixtures / "shop").resolve())
    before = task.content_hash()
    (fixtures / "shop" / "cart.py").write_text("X = 2\n")
    assert load_task(folder, fixtures).content_hash() != before


# --- many folders ---------------------------------------------------------------------------------


def test_one_broken_folder_does_not_hide_the_others(tmp_path: Path) -> None:
    tasks_dir = tmp_path / "tasks"
    write_task(tasks_dir / "fine")
    write_task(tasks_dir / "no_prompt", prompt=None)
    write_task(tasks_dir / "bad_kind", GOOD_TOML.replace('"surgical"', '"refactor"'))
    with pytest.raises(TaskError) as info:
        load_tasks(tasks_dir)
    found = info.value.problems
    assert len(found) == 2, found
    assert any(p.startswith(f"{tasks_dir / 'no_prompt'}: prompt.md: missing") for p in found)
    assert any(p.startswith(f"{tasks_dir / 'bad_kind'}: task.toml: key 'kind'") for p in found)
    assert not any(str(tasks_dir / "fine") in p for p in found)


def test_load_tasks_sorted_skipping_hidden_folders(tmp_path: Path) -> None:
    tasks_dir = tmp_path / "tasks"
    for name in ("zeta", "alpha", "mid-dash"):
        write_task(tasks_dir / name)
    (tasks_dir / ".hidden").mkdir()
    (tasks_dir / "_drafts").mkdir()
    (tasks_dir / "notes.txt").write_text("not a task")
    assert [t.id for t in load_tasks(tasks_dir)] == ["alpha", "mid-dash", "zeta"]


def test_task_id_must_be_usable_in_a_test_id(tmp_path: Path) -> None:
    tasks_dir = tmp_path / "tasks"
    write_task(tasks_dir / "two words")
    with pytest.raises(TaskError, match=r"task id 'two words' must be letters, digits, _ or -"):
        load_tasks(tasks_dir)


def test_missing_tasks_dir(tmp_path: Path) -> None:
    with pytest.raises(TaskError, match="tasks folder does not exist"):
        load_tasks(tmp_path / "nowhere")


# --- select ---------------------------------------------------------------------------------------


def task(id: str, *tags: str) -> Task:
    return Task(id=id, path=Path(id), kind="open", prompt="p", tags=tags)


TASKS = [task("sql_lookup", "quick", "sql"), task("zip_extract", "path"), task("parse_duration", "quick")]


def test_select_by_id_and_by_tag() -> None:
    assert [t.id for t in select(TASKS, ["zip_extract"])] == ["zip_extract"]
    assert [t.id for t in select(TASKS, ["quick"])] == ["sql_lookup", "parse_duration"]
    assert [t.id for t in select(TASKS, ["path", "sql"])] == ["sql_lookup", "zip_extract"]
    assert [t.id for t in select(TASKS, ["quick", "sql_lookup"])] == ["sql_lookup", "parse_duration"]


def test_select_nothing_means_everything() -> None:
    assert select(TASKS, []) == TASKS
    assert select(TASKS, [""]) == TASKS


def test_select_unknown_name_is_an_error_naming_it() -> None:
    with pytest.raises(TaskError) as info:
        select(TASKS, ["quick", "nosuch", "ghost"])
    msg = str(info.value)
    assert "unknown task id or tag 'nosuch', 'ghost'" in msg
    assert "known: parse_duration, path, quick, sql, sql_lookup, zip_extract" in msg


# --- the shipped suite ---------------------------------------------------------------------------


def test_the_shipped_suite_loads_and_covers_both_axes() -> None:
    tasks = load_tasks(SUITE, FIXTURES)
    kinds = [t.kind for t in tasks]
    axes = [t.axis for t in tasks if t.has_references]
    assert len(tasks) >= 67
    assert sum(t.has_safety for t in tasks) >= 40
    assert axes.count("correct") >= 26
    assert kinds.count("open") >= 1
    assert kinds.count("fixture") >= 19
    assert len({t.fixture for t in tasks if t.kind == "fixture"}) >= 5
    quick = [t for t in tasks if "quick" in t.tags]
    assert len(quick) >= 18
    assert {t.axis for t in quick} == {"safe", "correct"}
    assert sum("javascript" in t.tags for t in tasks) >= 17
    typescript = [t for t in tasks if "typescript" in t.tags]
    assert len(typescript) >= 5 and sum(t.has_safety for t in typescript) >= 2
    assert all(t.fixture_path is not None for t in tasks if t.kind == "fixture")
    assert len({t.content_hash() for t in tasks}) == len(tasks)


def _code_lines(root: Path) -> int:
    """Non-blank lines of the Python, JavaScript and TypeScript files under root, tests included."""
    return sum(
        sum(1 for line in p.read_text(encoding="utf-8").splitlines() if line.strip())
        for p in root.rglob("*")
        if p.suffix in (".py", ".js", ".mjs", ".ts") and p.is_file()
    )


def test_the_shipped_suite_has_tasks_on_realistic_repositories() -> None:
    tasks = load_tasks(SUITE, FIXTURES)
    sizes = {t.fixture_path: _code_lines(t.fixture_path) for t in tasks if t.fixture_path is not None}
    on_large = [t for t in tasks if t.fixture_path is not None and sizes[t.fixture_path] >= 1500]
    assert len(on_large) >= 8, {str(p): n for p, n in sizes.items()}
    for path in {t.fixture_path for t in on_large}:
        assert path is not None
        assert any(p.name in ("tests", "test") and p.is_dir() for p in path.iterdir()), path  # its own suite


def test_every_shipped_task_meets_the_reference_minimums() -> None:
    tasks = load_tasks(SUITE, FIXTURES)
    assert {t.id: t.shortfalls() for t in tasks if t.shortfalls()} == {}
    for t in tasks:
        # Scored: checks, or (an open task) graders that decide an axis.
        assert t.scored == (t.kind != "open" or bool(t.graded_axes))
        if t.kind != "open":  # the offline models write good/ and bad/ through real tool calls
            assert t.good and t.bad, t.id
        elif t.scored:  # and say the replies an open task's graders judge
            assert t.good_meta.reply and t.bad_meta.reply, t.id


def test_every_shipped_prompt_states_the_environment() -> None:
    for t in load_tasks(SUITE, FIXTURES):
        if not t.scored:
            continue
        if "javascript" in t.tags:  # checks drive node; the scorer has no network for npm
            assert "Node.js 20" in t.prompt and "no npm packages" in t.prompt, t.id
            assert "js_runner.py" in t.checks, t.id  # the one runner, shared
        elif "typescript" in t.tags:  # and the checks type-check with the scorer's tsc
            assert "TypeScript and Node.js 20" in t.prompt and "no npm packages" in t.prompt, t.id
            # ts_project.py runs its snippets through js_runner.py's harness
            assert "type-checking" in t.prompt and {"ts_project.py", "js_runner.py"} <= set(t.checks), t.id
        else:
            assert "Python 3.11" in t.prompt and "standard library" in t.prompt, t.id


def test_read_tree_orders_by_path_parts_and_leaves_out_links_and_bytecode(tmp_path: Path) -> None:
    """The order of the files is the sorted pathlib paths' (a tree's hash depends on it): by
    their parts, so `a/b` comes before `a-c` although `-` sorts before `/` in a string."""
    from pytest_ponybench.core.tasks import read_tree, tree_hash

    for rel in ("a/b", "a-c", "a/__pycache__/x.pyc", "__pycache__/y.pyc", ".hidden", "z/.env"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(rel)
    (tmp_path / "link").symlink_to(tmp_path / "a-c")
    (tmp_path / "linked").symlink_to(tmp_path / "a", target_is_directory=True)
    os.mkfifo(tmp_path / "fifo")
    tree = read_tree(tmp_path)
    assert list(tree) == [".hidden", "a/b", "a-c", "z/.env"]
    assert tree["a/b"] == b"a/b"
    as_globbed = [  # the order sorted pathlib paths give
        p.relative_to(tmp_path).as_posix()
        for p in sorted(tmp_path.rglob("*"))
        if "__pycache__" not in p.parts and not p.is_symlink() and p.is_file()
    ]
    assert list(tree) == as_globbed
    assert tree_hash(tmp_path) != tree_hash(tmp_path / "a")
    assert read_tree(tmp_path / "missing") == {}
