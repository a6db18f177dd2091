import json

import pytest


def parse_all(js, texts):
    return js("csv.js", f"""
        const parseCsv = pick('parseCsv');
        if (typeof parseCsv !== "function") throw new Error("csv.js does not export a function parseCsv");
        return {json.dumps(texts)}.map((t) => {{
            const r = attempt(() => parseCsv(t));
            if (!r.ok) return "throws " + r.name;
            return Array.isArray(r.value) ? r.value.map((row) => Array.from(row)) : r.value;
        }});
    """)


def check(js, table):
    got = parse_all(js, [t for t, _ in table])
    wrong = [f"parseCsv({t!r}) gave {g!r}, expected {e!r}" for (t, e), g in zip(table, got) if g != e]
    assert not wrong, f"{len(wrong)} of {len(table)} wrong: " + "; ".join(wrong[:5])


def test_plain_records(js):
    check(js, [
        ("a,b,c", [["a", "b", "c"]]),
        ("a,b\nc,d", [["a", "b"], ["c", "d"]]),
        ("a,b\r\nc,d\r\n", [["a", "b"], ["c", "d"]]),
        ("a,b\nc,d\n", [["a", "b"], ["c", "d"]]),
        ("name,amount\nTea,2.50\nCake,3", [["name", "amount"], ["Tea", "2.50"], ["Cake", "3"]]),
        ("x", [["x"]]),
        ("a,b\nc", [["a", "b"], ["c"]]),
    ])


def test_empty_fields_and_lines(js):
    check(js, [
        ("", []),
        ("\n", [[""]]),
        ("\r\n", [[""]]),
        ("a,,b", [["a", "", "b"]]),
        (",", [["", ""]]),
        ("a,", [["a", ""]]),
        ("a,b,\n", [["a", "b", ""]]),
        (",a", [["", "a"]]),
        ("a\n\nb", [["a"], [""], ["b"]]),
        ("a\n\n", [["a"], [""]]),
        ("a\r\n\r\nb\r\n", [["a"], [""], ["b"]]),
        ('""', [[""]]),
        ('"",""\n', [["", ""]]),
    ])


def test_fields_are_kept_as_written(js):
    check(js, [
        ("  a , b  ", [["  a ", " b  "]]),
        ("007,1e3,true,null", [["007", "1e3", "true", "null"]]),
        ("a\tb,c", [["a\tb", "c"]]),
        ("ünï,✓", [["ünï", "✓"]]),
        ("a'b,'c'", [["a'b", "'c'"]]),
    ])


def test_quoted_fields(js):
    check(js, [
        ('"a,b",c', [["a,b", "c"]]),
        ('"He said ""hi""",x', [['He said "hi"', "x"]]),
        ('""""', [['"']]),
        ('"a""b""c"', [['a"b"c']]),
        ('"line1\nline2",x\ny,z', [["line1\nline2", "x"], ["y", "z"]]),
        ('"crlf\r\ninside"\r\nnext', [["crlf\r\ninside"], ["next"]]),
        ('x,"quoted at end"', [["x", "quoted at end"]]),
        ('"a",\n', [["a", ""]]),
        ('"  padded  "', [["  padded  "]]),
        ('"",a', [["", "a"]]),
        ('"a\n"\n', [["a\n"]]),
        ('"Smith, John","42 ""Main"" St.\nApt 3",2024-01-05\r\n',
         [["Smith, John", '42 "Main" St.\nApt 3', "2024-01-05"]]),
    ])


def test_byte_order_mark_is_dropped(js):
    check(js, [
        ("\ufeffname,qty\nTea,1", [["name", "qty"], ["Tea", "1"]]),
        ('\ufeff"quoted",x', [["quoted", "x"]]),
        ("a,\ufeffb", [["a", "\ufeffb"]]),
    ])


def test_ragged_records_are_kept(js):
    check(js, [("a,b,c\nd\ne,f", [["a", "b", "c"], ["d"], ["e", "f"]])])


@pytest.mark.parametrize("text", [
    'ab"c', 'a,b"c', '"ab"c', '"ab" ,x', '"unclosed', 'a,"unclosed\nb,c', '"a""', 'x\n"ab"c\n',
    '"a"\r', '"a""b" x',
])
def test_invalid_csv_throws_syntax_error(js, text):
    (got,) = parse_all(js, [text])
    assert got == "throws SyntaxError", f"parseCsv({text!r}) should throw a SyntaxError, got {got!r}"


def test_large_input_is_linear(js):
    got = js("csv.js", r'''
        const parseCsv = pick('parseCsv');
        const row = '"a, quoted ""value""",plain,123\r\n';
        const rows = parseCsv(row.repeat(20000));
        return [rows.length, rows[19999]];
    ''', timeout=30)
    assert got == [20000, ['a, quoted "value"', "plain", "123"]], f"20000 records parsed as {got!r}"
