"""Each Python mutation operator on a small source: comparisons flipped, boolean operators, numbers
moved by one, strings emptied, guards and filters dropped, sanitizers replaced, regex anchors,
encoding keywords; only changed lines mutated, ids that survive unrelated edits; every mutant a
valid program that differs from its source."""

from __future__ import annotations

from pytest_ponybench import mutation
from tests.unit._support.mutants import mutants


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
