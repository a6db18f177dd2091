"""`ponybench mutate` (pytest_ponybench/mutation): each mutation operator on a small source, ids
that survive unrelated edits, and the task folder's mutants.toml (its errors name the file and
the key; the selftest reads the figure `ponybench mutate` writes)."""

from __future__ import annotations

import ast
import dataclasses
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench import cli, mutation
from pytest_ponybench.core.tasks import load_task, task_folders
from pytest_ponybench.mutation import runner
from pytest_ponybench.roles.selftest import mutation_figure
from tests.support import REPO


def mutants(source: str, operator: str | None = None) -> list[Any]:
    found = mutation.mutants_of("good", "m.py", source)
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
    lines = mutation.changed_lines(base, text)
    got = mutation.mutants_of("good", "m.py", text, lines)
    assert got and all(m.line == 6 for m in got)
    assert mutation.changed_lines(None, text) is None  # a new file: every line


def test_ids_are_deterministic_and_survive_unrelated_edits() -> None:
    source = "def f(a):\n    if a < 0:\n        return 0\n    return a < 10\n"
    first = {m.id: m.describe().split(":", 2)[-1] for m in mutants(source)}
    assert first == {m.id: m.describe().split(":", 2)[-1] for m in mutants(source)}
    moved = "import os\n\n\ndef helper():\n    return 1\n\n\n" + source
    again = {m.id for m in mutation.mutants_of("good", "m.py", moved) if "helper" not in m.before}
    assert set(first) <= again
    assert len(set(first)) == len(first)
    # the same edit on two identical lines: told apart by their rank
    twice = mutants("x = a < 1\nx = a < 1\n", "compare")
    assert len({m.id for m in twice}) == 2
    # the id names the reference and the file too
    other = mutation.mutants_of("refs_x", "m.py", source)
    assert not {m.id for m in other} & set(first)


def test_test_files_are_not_mutated() -> None:
    is_test = mutation.is_test_file
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


# --- JavaScript ----------------------------------------------------------------------------


def js_mutants(source: str, operator: str | None = None, path: str = "m.js") -> list[Any]:
    found = mutation.mutants_of("good", path, source)
    for m in found:  # every mutant reads as JavaScript and differs from the source
        assert mutation.js_shape(m.source) is not None and mutation.js_shape(m.source) != mutation.js_shape(
            source
        ), m
    return [m for m in found if operator is None or m.operator == operator]


def js_changed(source: str, operator: str) -> list[str]:
    return sorted(m.after.strip() for m in js_mutants(source, operator))


def test_js_compare_flips_each_operator() -> None:
    source = "const ok = a < b && c <= d && e > f && g >= h && i === j && k !== l && m == n && o != p;\n"
    got = js_changed(source, "compare")
    assert len(got) == 8
    for old, new in (
        ("a < b", "a <= b"),
        ("c <= d", "c < d"),
        ("e > f", "e >= f"),
        ("g >= h", "g > h"),
        ("i === j", "i !== j"),
        ("k !== l", "k === l"),
        ("m == n", "m != n"),
        ("o != p", "o == p"),
    ):
        assert source.strip().replace(old, new) in got
    # shifts, arrows and assignments are not comparisons
    assert js_changed("const f = (x) => x >> 1 >>> 2 << 3;\nlet y = 0;\ny >>= 1;\n", "compare") == []


def test_js_boolop_not_bool() -> None:
    assert js_changed("const v = a && b || c;\n", "boolop") == sorted(
        ["const v = a || b || c;", "const v = a && b && c;"]
    )
    assert js_changed("if (!ok && x != y) run();\n", "not") == ["if (ok && x != y) run();"]
    assert js_changed("let on = true;\nconst off = false;\nobj.true = 1;\n", "bool") == sorted(
        ["let on = false;", "const off = true;"]
    )


def test_js_numbers_move_by_one_and_keep_their_base() -> None:
    assert js_changed("const limit = 0xFF;\n", "number") == sorted(
        ["const limit = 0x100;", "const limit = 0xFE;"]
    )
    assert js_changed("let i = 0;\n", "number") == sorted(["let i = 1;", "let i = (-1);"])
    assert js_changed("const r = 0.5;\n", "number") == ["const r = 1.5;"]
    assert js_changed("const big = 10n;\n", "number") == sorted(["const big = 11n;", "const big = 9n;"])
    assert js_changed("const m = 1_000;\n", "number") == sorted(["const m = 1001;", "const m = 999;"])


def test_js_strings_are_emptied_except_keys_directives_imports_and_errors() -> None:
    source = (
        '"use strict";\n'
        'import { x } from "./x.js";\n'
        'const fs = require("node:fs");\n'
        'const table = { "&": "&amp;", plain: \'\' };\n'
        'const v = obj["key"] + `tail` + `n=${n}`;\n'
        'if (!v) throw new Error("a message");\n'
        "// const c = 'in a comment';\n"
        '/* const d = "in a block"; */\n'
    )
    assert js_changed(source, "string") == sorted(
        [
            'const table = { "&": "", plain: \'\' };',
            'const table = { "&": "&amp;", plain: \'x\' };',
            'const v = obj["key"] + `` + `n=${n}`;',
        ]
    )


def test_js_what_an_error_says_is_left_alone() -> None:
    source = (
        "function f(x) {\n"
        "  if (x > 1) throw new RangeError(`too big: ${x - 1 > 0 && name.trim()}`);\n"
        '  callback(new Error("failed: " + stderr.trim() || "x"), x < 2);\n'
        "}\n"
    )
    got = sorted((m.line, m.operator, m.after.strip()) for m in js_mutants(source))
    assert got == sorted(
        [
            (2, "compare", "if (x >= 1) throw new RangeError(`too big: ${x - 1 > 0 && name.trim()}`);"),
            (2, "number", "if (x > 2) throw new RangeError(`too big: ${x - 1 > 0 && name.trim()}`);"),
            (2, "number", "if (x > 0) throw new RangeError(`too big: ${x - 1 > 0 && name.trim()}`);"),
            (2, "guard", ";"),
            (3, "compare", 'callback(new Error("failed: " + stderr.trim() || "x"), x <= 2);'),
            (3, "number", 'callback(new Error("failed: " + stderr.trim() || "x"), x < 3);'),
            (3, "number", 'callback(new Error("failed: " + stderr.trim() || "x"), x < 1);'),
        ]
    )


def test_js_template_literals_keep_their_text_and_mutate_their_code() -> None:
    source = "const s = `a < b ${f(x < 1)} 'q' \"r\" ${ {k: 2}.k } // not a comment`;\n"
    assert js_changed(source, "compare") == [
        "const s = `a < b ${f(x <= 1)} 'q' \"r\" ${ {k: 2}.k } // not a comment`;"
    ]
    assert js_changed(source, "string") == []
    assert len(js_changed(source, "number")) == 4  # 1 and 2, up and down


def test_js_regex_literals_and_divisions_are_told_apart() -> None:
    source = "const half = total / 2 / n;\nconst re = /^[<>=\"']+$/g;\nconst esc = /cost\\$/;\n"
    assert js_changed(source, "compare") == []
    assert js_changed(source, "string") == []
    assert js_changed(source, "regex") == sorted(["const re = /[<>=\"']+$/g;", "const re = /^[<>=\"']+/g;"])
    assert len(js_changed(source, "number")) == 2
    # after `)` a slash divides; after `return` or `(` it starts a regular expression
    assert js_changed("const x = (a + b) / 2;\n", "regex") == []
    assert js_changed("function f(s) {\n  return /^a$/.test(s);\n}\n", "regex") == sorted(
        ["return /a$/.test(s);", "return /^a/.test(s);"]
    )


def test_js_regexp_patterns_in_strings_and_templates_lose_their_anchors() -> None:
    got = js_changed('const A = new RegExp("^[a-z]+$", "i");\nconst B = new RegExp("cost\\\\$");\n', "regex")
    assert got == sorted(['const A = new RegExp("[a-z]+$", "i");', 'const A = new RegExp("^[a-z]+", "i");'])
    got = js_changed("const V = new RegExp(`^${NUM}\\\\.${NUM}$`);\n", "regex")
    assert got == sorted(
        ["const V = new RegExp(`${NUM}\\\\.${NUM}$`);", "const V = new RegExp(`^${NUM}\\\\.${NUM}`);"]
    )
    got = js_changed('const W = RegExp("^" + x + "-v$");\n', "regex")
    assert got == ['const W = RegExp("^" + x + "-v");']  # "^" alone emptied is the string operator's


def test_js_guards_without_else_are_dropped() -> None:
    source = (
        "function f(x) {\n"
        "  if (x < 0) throw new RangeError(`negative: ${x}`);\n"
        "  for (const y of x) {\n"
        "    if (y) continue;\n"
        "  }\n"
        "  if (x.done) {\n"
        "    log(x);\n"
        "    return 1;\n"
        "  }\n"
        "  if (x.a) return 2;\n"
        "  else return 3;\n"
        "  if (x.b) return 4;\n"
        "  else if (x.c) return 5;\n"
        "  if (x.d) { if (x.e) return 6; }\n"
        "  if (x.f) run();\n"
        "  return 0;\n"
        "}\n"
    )
    guards = js_mutants(source, "guard")
    assert [(m.line, m.after.strip()) for m in guards] == [
        (2, ";"),
        (4, ";"),
        (6, ";"),
        (14, "if (x.d) { ; }"),
    ]
    assert "RangeError" not in guards[0].source
    assert "log(x)" not in guards[2].source and "return 1;" not in guards[2].source


def test_js_sanitizers_are_replaced_by_their_argument() -> None:
    source = (
        'const path = require("node:path");\n'
        'const { realpathSync: real } = require("node:fs");\n'
        "function escapeHtml(text) {\n"
        "  return text.replace(/[&<]/g, (c) => MAP[c]);\n"
        "}\n"
        "const a = encodeURIComponent(name);\n"
        "const b = escapeHtml(user.name);\n"
        "const c = path.resolve(root, rel);\n"
        "const d = path.normalize(p);\n"
        "const e = real(p);\n"
        "const f = input.trim().toLowerCase();\n"
        "const g = unknown(p) + other.resolve(p) + path.join(a, b);\n"
    )
    assert js_changed(source, "drop_call") == sorted(
        [
            "const a = (name);",
            "const b = (user.name);",
            'const c = [root, rel].join("/");',
            "const d = (p);",
            "const e = (p);",
            "const f = input.toLowerCase();",
            "const f = input.trim();",
        ]
    )
    esm = 'import { resolve as r, sep } from "node:path";\nconst base = r(root);\nconst s = sep + "x";\n'
    assert js_changed(esm, "drop_call") == ["const base = (root);"]
    # a helper that is not defined in the file (or only named like one elsewhere) is left alone
    assert js_changed("const b = escapeHtml(x);\n", "drop_call") == []


def test_js_timing_safe_equal_becomes_equals() -> None:
    source = (
        "const ok = crypto.timingSafeEqual(given, expected);\n"
        "const ok2 = timingSafeEqual(Buffer.from(a), b);\n"
    )
    assert js_changed(source, "swap_call") == sorted(
        ["const ok = given.equals(expected);", "const ok2 = (Buffer.from(a)).equals(b);"]
    )


def test_js_ids_are_stable_across_unrelated_edits() -> None:
    source = 'function f(a) {\n  if (a < 0) return "";\n  return a === 10;\n}\n'
    first = {m.id for m in js_mutants(source)}
    assert first == {m.id for m in js_mutants(source)}
    moved = "// a new comment\nconst helper = () => 1;\n\n" + source
    again = {m.id for m in mutation.mutants_of("good", "m.js", moved) if "helper" not in m.before}
    assert first and first <= again
    assert not first & {m.id for m in mutation.mutants_of("good", "other.js", source)}


def test_js_unreadable_sources_make_no_mutants() -> None:
    assert mutation.mutants_of("good", "m.js", 'const s = "never closed;\n') == []
    assert mutation.mutants_of("good", "m.js", "function f() {\n  return 1;\n") == []
    assert mutation.mutants_of("good", "m.js", "f(a < 1;\n") == []
    assert mutation.mutants_of("good", "m.js", "const s = `open ${x < 1}\n") == []


def test_javascript_files_are_chosen_by_suffix_and_tests_left_out() -> None:
    assert (
        mutation.is_mutated("src/export.js")
        and mutation.is_mutated("lib/a.mjs")
        and mutation.is_mutated("b.cjs")
    )
    assert not mutation.is_mutated("test/export-quoting.test.js") and not mutation.is_mutated(
        "src/a.spec.mjs"
    )
    assert not mutation.is_mutated("README.md") and not mutation.is_mutated("src/__tests__/a.js")


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


def test_ts_types_are_left_alone() -> None:
    source = (
        'type Kind = "open" | "closed";\n'
        "export interface Item {\n  kind: Kind;\n  size: 3;\n}\n"
        "declare const limit: number;\n"
        'export function f(items: Array<Item>, m: Map<string, number>, s: "a" | "b"): boolean {\n'
        "  const first = items[0]!;\n"
        '  return first.kind === "open" && items.length < limit && !m.has(s);\n'
        "}\n"
    )
    found = mutation.mutants_of("good", "m.ts", source)
    assert {m.line for m in found} == {8, 9}, [(m.line, m.after) for m in found]
    assert sorted(m.after.strip() for m in found if m.line == 8) == [
        "const first = items[(-1)]!;",
        "const first = items[1]!;",
    ]
    ops = sorted(m.operator for m in found if m.line == 9)
    # ===, the string "open", &&, &&, <, and the one prefix ! (not the assertion after items[0])
    assert ops == ["boolop", "boolop", "compare", "compare", "not", "string"], ops
    assert [m.after.strip() for m in found if m.operator == "not"] == [
        'return first.kind === "open" && items.length < limit && m.has(s);'
    ]
    # the same text as JavaScript is mutated as before: TypeScript's rules apply to .ts only
    js = "const ok = a<b && !c;\n"
    assert len(mutation.mutants_of("good", "m.js", js)) == len(mutation.mutants_of("good", "m.ts", js)) + 1


def test_typescript_files_are_chosen_by_suffix_and_tests_left_out() -> None:
    assert mutation.is_mutated("src/app.ts") and mutation.is_mutated("a.mts") and mutation.is_mutated("b.cts")
    assert mutation.is_typescript("src/app.ts") and mutation.is_javascript("src/app.ts")
    assert not mutation.is_mutated("types/node.d.ts") and not mutation.is_mutated("src/x.test.ts")
    assert not mutation.is_mutated("test/helpers.ts") and not mutation.is_mutated("src/a.spec.ts")


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


# --- the command ------------------------------------------------------------------------------


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
