"""scripts/mutate_refs.py: each mutation operator on a small source, ids that survive unrelated
edits, and the task folder's mutants.toml (its errors name the file and the key; the selftest
reads the figure the script writes)."""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pytest_ponybench.core.tasks import load_task
from pytest_ponybench.roles.selftest import mutation_figure
from tests.support import REPO


def script() -> ModuleType:
    name = "mutate_refs"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / "mutate_refs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def mutants(source: str, operator: str | None = None) -> list[Any]:
    found = script().mutants_of("good", "m.py", source)
    for m in found:  # every mutant is a valid program that differs from the source
        assert ast.dump(ast.parse(m.source)) != ast.dump(ast.parse(source)), m
    return [m for m in found if operator is None or m.operator == operator]


def changed(source: str, operator: str) -> list[str]:
    """The mutated lines, one string per mutant of that operator, sorted."""
    return sorted(m.after.strip() for m in mutants(source, operator))


def test_compare_flips_each_operator() -> None:
    source = "def f(a, b, c):\n    return a < b <= c and a > 1 and b >= 2 and a == b and a != c\n"
    got = changed(source, "compare")
    assert "return a <= b <= c and a > 1 and b >= 2 and a == b and a != c" in got
    assert "return a < b < c and a > 1 and b >= 2 and a == b and a != c" in got
    assert "return a < b <= c and a >= 1 and b >= 2 and a == b and a != c" in got
    assert "return a < b <= c and a > 1 and b > 2 and a == b and a != c" in got
    assert "return a < b <= c and a > 1 and b >= 2 and a != b and a != c" in got
    assert "return a < b <= c and a > 1 and b >= 2 and a == b and a == c" in got
    assert changed("x = a in b or a not in c or a is None or a is not b\n", "compare") == sorted(
        [
            "x = a not in b or a not in c or a is None or a is not b",
            "x = a in b or a in c or a is None or a is not b",
            "x = a in b or a not in c or a is not None or a is not b",
            "x = a in b or a not in c or a is None or a is b",
        ]
    )


def test_boolop_and_not() -> None:
    assert changed("ok = a and b and c\n", "boolop") == sorted(["ok = a or b or c"])
    assert changed("ok = a or (b and c)\n", "boolop") == sorted(
        ["ok = a and (b and c)", "ok = a or (b or c)"]
    )
    assert changed("if not a or b:\n    pass\n", "not") == sorted(["if (a) or b:"])


def test_numbers_move_by_one_and_keep_their_base() -> None:
    assert changed("limit = 0xFF\n", "number") == sorted(["limit = 0x100", "limit = 0xFE"])
    assert changed("n = 0\n", "number") == sorted(["n = 1", "n = (-1)"])
    assert changed("r = 0.5\n", "number") == sorted(["r = 1.5"])
    assert changed("flag = True\n", "bool") == sorted(["flag = False"])
    assert changed("flag = True\n", "number") == []  # a bool is not a number


def test_strings_are_emptied_except_docstrings_keys_and_messages() -> None:
    source = (
        'def f(d):\n    """Docstring."""\n    if not d:\n        raise ValueError("a message")\n'
        '    return d["key"] + "tail" + ""\n'
    )
    assert changed(source, "string") == sorted(
        ['return d["key"] + \'\' + ""', 'return d["key"] + "tail" + \'x\'']
    )
    assert changed("b = b'abc'\n", "string") == sorted(["b = b''"])


def test_guards_without_else_are_dropped() -> None:
    source = (
        "def f(x):\n    if x < 0:\n        raise ValueError(x)\n    for y in x:\n        if y:\n"
        "            continue\n    if x:\n        return 1\n    else:\n        return 2\n    return 0\n"
    )
    guards = mutants(source, "guard")
    assert [(m.line, m.after.strip()) for m in guards] == [(2, "pass"), (5, "pass")]
    assert "if x < 0" not in guards[0].source and "raise" not in guards[0].source
    # an elif is part of its parent's text: never cut out on its own
    assert [m.line for m in mutants("if a:\n    x = 1\nelif b:\n    return 2\n", "guard")] == []


def test_comprehension_filters_are_dropped() -> None:
    assert changed("ys = [y for y in xs if (y > 0) if y]\n", "filter") == sorted(
        [
            "ys = [y for y in xs if y]",
            "ys = [y for y in xs if (y > 0)]",
        ]
    )


def test_sanitizer_calls_are_replaced_by_their_argument() -> None:
    source = (
        "import html, shlex, os\n"
        "a = html.escape(name, quote=True)\nb = shlex.quote(arg)\nc = os.path.realpath(p)\n"
        "d = path.resolve()\ne = f'<b>{html.escape(name)}</b>'\nf = str(x)\n"
    )
    assert changed(source, "drop_call") == sorted(
        ["a = name", "b = arg", "c = p", "d = path", "e = f'<b>{name}</b>'"]
    )
    assert changed("ok = hmac.compare_digest(a, b)\n", "swap_call") == sorted(["ok = (a == b)"])


def test_f_string_literal_parts_are_left_alone() -> None:
    assert changed('line = f\'user={name} result={"ok" if ok else "failed"}\'\n', "string") == []


def test_regex_anchors_and_match_functions() -> None:
    source = 'import re\nA = re.compile(r"\\A[a-z]+\\Z")\nB = re.match(r"^x$", s)\nC = A.fullmatch(s)\n'
    got = changed(source, "regex")
    assert 'A = re.compile(r"^[a-z]+\\Z")' in got
    assert 'A = re.compile(r"\\A[a-z]+$")' in got
    assert 'B = re.match(r"x$", s)' in got
    assert 'B = re.match(r"^x", s)' in got
    assert 'B = re.search(r"^x$", s)' in got
    assert "C = A.match(s)" in got
    # an escaped dollar is a character, not an anchor
    assert changed('import re\nP = re.compile(r"cost\\$")\n', "regex") == []


def test_encoding_and_errors_keywords_are_dropped() -> None:
    source = (
        'text = open(p, encoding="utf-8", errors="strict").read()\nrun(cmd, check=True)\nf(mode=1, x=2)\n'
    )
    assert changed(source, "drop_kwarg") == sorted(
        [
            'text = open(p, errors="strict").read()',
            'text = open(p, encoding="utf-8").read()',
            "run(cmd)",
            "f(x=2)",
        ]
    )


def test_only_changed_lines_are_mutated() -> None:
    base = "def f(a):\n    return a + 1\n\n\ndef g(b):\n    return b\n"
    text = base.replace("return b\n", "return b < 3\n")
    lines = script().changed_lines(base, text)
    got = script().mutants_of("good", "m.py", text, lines)
    assert got and all(m.line == 6 for m in got)
    assert script().changed_lines(None, text) is None  # a new file: every line


def test_ids_are_deterministic_and_survive_unrelated_edits() -> None:
    source = "def f(a):\n    if a < 0:\n        return 0\n    return a < 10\n"
    first = {m.id: m.describe().split(":", 2)[-1] for m in mutants(source)}
    assert first == {m.id: m.describe().split(":", 2)[-1] for m in mutants(source)}
    moved = "import os\n\n\ndef helper():\n    return 1\n\n\n" + source
    again = {m.id for m in script().mutants_of("good", "m.py", moved) if "helper" not in m.before}
    assert set(first) <= again
    assert len(set(first)) == len(first)
    # the same edit on two identical lines: told apart by their rank
    twice = mutants("x = a < 1\nx = a < 1\n", "compare")
    assert len({m.id for m in twice}) == 2
    # the id names the reference and the file too
    other = script().mutants_of("refs_x", "m.py", source)
    assert not {m.id for m in other} & set(first)


def test_test_files_are_not_mutated() -> None:
    is_test = script().is_test_file
    assert is_test("tests/test_cart.py") and is_test("test_x.py") and is_test("pkg/conftest.py")
    assert not is_test("shopcart/discounts.py") and not is_test("audit.py")


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
    with pytest.raises(script().MutantsFileError) as caught:
        script().read_mutants_file(path)
    assert str(path) in str(caught.value) and message in str(caught.value)


def test_a_missing_mutants_file_is_empty(tmp_path: Path) -> None:
    parsed = script().read_mutants_file(tmp_path / "mutants.toml")
    assert parsed.equivalent == {} and parsed.result == {}


def test_the_written_file_reads_back_and_the_selftest_shows_its_figure(tmp_path: Path) -> None:
    mod = script()
    task = load_task(REPO / "benchmarks" / "tasks" / "merge_intervals")
    found = mutants("def f(a):\n    return a < 1\n")
    outcome = mod.TaskOutcome("t", found, killed=len(found) - 2, survived=[found[0]], equivalent=[found[1]])
    old = mod.MutantsFile(tmp_path / "mutants.toml", equivalent={found[1].id: 'a "quoted" reason'})
    folder = tmp_path / "task"
    folder.mkdir()
    (folder / "mutants.toml").write_text(mod.render_mutants_file(outcome, old), encoding="utf-8")
    back = mod.read_mutants_file(folder / "mutants.toml")
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
    assert mutation_figure(bare) == ("no mutation figure (scripts/mutate_refs.py)", False)
    (folder / "mutants.toml").write_text("[result]\nkilled = 1\n", encoding="utf-8")
    figure, low = mutation_figure(bare)
    assert figure.startswith("mutants.toml has no readable [result]") and low
    (folder / "mutants.toml").write_text(
        "[result]\nkilled = 8\ntotal = 11\nequivalent = 1\n", encoding="utf-8"
    )
    assert mutation_figure(bare) == ("mutants 8/10 killed (1 equivalent)", True)


def test_every_shipped_task_has_a_figure_at_the_goal() -> None:
    """The stored figures the README's table shows: every scored task meets the goal."""
    for folder in sorted((REPO / "benchmarks" / "tasks").iterdir()):
        task = load_task(folder, REPO / "fixtures")
        if not task.scored:
            continue
        figure, low = mutation_figure(task)
        assert figure.startswith("mutants ") and not low, f"{task.id}: {figure}"


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
    changed = script().changed_tasks
    assert changed("HEAD", tmp_path, tmp_path / "benchmarks" / "tasks", tasks) == []
    (tmp_path / "benchmarks" / "tasks" / "a" / "prompt.md").write_text("y\n")  # edited, not committed
    (tmp_path / "fixtures" / "shop" / "cart.py").write_text("x = 2\n")  # c's fixture
    assert changed("HEAD", tmp_path, tmp_path / "benchmarks" / "tasks", tasks) == ["a", "c"]
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "mutate_refs.py").write_text("")  # a new mutator: every task
    assert changed("HEAD", tmp_path, tmp_path / "benchmarks" / "tasks", tasks) == ["a", "b", "c"]
    with pytest.raises(script().ChangedSinceError, match="--changed-since nope"):
        changed("nope", tmp_path, tmp_path / "benchmarks" / "tasks", tasks)
