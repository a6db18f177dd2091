"""Each JavaScript mutation operator on a small source: comparisons, boolean operators, numbers,
strings, template literals, regex literals told from divisions, guards, sanitizers,
timingSafeEqual; ids stable across unrelated edits, unreadable sources make no mutants."""

from __future__ import annotations

from typing import Any

from pytest_ponybench import mutation


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
