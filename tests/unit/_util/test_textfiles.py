"""JSON lines and log tails: torn and blank lines counted, a big log read only at its ends, a quote
that keeps what failed. Real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_ponybench._util.textfiles import parse_jsonl, quote, quote_file, read_jsonl


def test_parse_jsonl_skips_blank_and_counts_torn_and_non_object_lines() -> None:
    data = b'{"a": 1}\n\n{"b": 2\n[1, 2]\n"text"\n\xff\xfe{"c": 3}\n{"d": 4}'
    lines = parse_jsonl(data)
    assert lines.objects == [{"a": 1}, {"d": 4}]
    assert lines.bad == 4


def test_parse_jsonl_keeps_a_line_separator_inside_a_string() -> None:
    # JavaScript's JSON.stringify leaves U+2028 unescaped; str.splitlines would cut there.
    text = json.dumps({"text": "a\u2028b\u2029c\x1cd"}, ensure_ascii=False) + "\n"
    assert parse_jsonl(text.encode()).objects == [{"text": "a\u2028b\u2029c\x1cd"}]


def test_read_jsonl_of_a_missing_file_is_empty_and_of_a_folder_raises(tmp_path: Path) -> None:
    assert read_jsonl(tmp_path / "nope.jsonl").objects == []
    with pytest.raises(IsADirectoryError):
        read_jsonl(tmp_path)


def test_quote_file_reads_only_the_ends_of_a_big_log(tmp_path: Path) -> None:
    log = tmp_path / "stderr"
    log.write_bytes(
        b"Traceback (most recent call last):\n" + b"noise\n" * 100_000 + b"ValueError: \xff bad\n\n  \n"
    )
    assert quote_file(log) == "Traceback (most recent call last): … ValueError: \ufffd bad"
    assert quote_file(tmp_path / "missing") == ""
    (tmp_path / "empty").write_bytes(b"")
    assert quote_file(tmp_path / "empty") == ""


NODE_CRASH = """node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module '/tmp/x/plugin/hooks/session-start.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Module._load (node:internal/modules/cjs/loader:1038:27)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2
"""


def test_a_quote_keeps_the_first_and_last_lines_and_the_error_between() -> None:
    said = quote(NODE_CRASH)
    assert said == (
        "node:internal/modules/cjs/loader:1210 … Error: Cannot find module "
        "'/tmp/x/plugin/hooks/session-start.js' … Node.js v20.20.2"
    )
    # However short the room, each end and the error keep their start.
    for limit in (40, 60, 100, 200):
        short = quote(NODE_CRASH, limit)
        assert len(short) <= limit + 2, (limit, short)
        first, error, last = short.split(" … ")
        assert first.startswith("node:") and error.startswith("Error") and last.startswith("Node.js")
    assert quote(NODE_CRASH, 100).endswith(" … Node.js v20.20.2")  # a short last line stays whole


def test_a_python_traceback_keeps_what_failed_whole_when_room_is_short() -> None:
    text = (
        'Traceback (most recent call last):\n  File "/x/y.py", line 3\n'
        "ModuleNotFoundError: No module named 'foo'"
    )
    assert (
        quote(text) == 'Traceback (most recent call last): | File "/x/y.py", line 3 | ' + text.split("\n")[-1]
    )
    assert quote(text, 70) == "Traceback (most recent… … ModuleNotFoundError: No module named 'foo'"


def test_one_long_line_is_cut_between_words() -> None:
    said = quote("AssertionError: safe_next('//evil.example/') returned '//evil.example/', " * 10, 80)
    assert said.endswith("…") and len(said) <= 80
    assert said.startswith("AssertionError: safe_next(") and not said[:-1].endswith((" ", "'//evil"))
    assert quote("  \n\n ") == "" and quote("one\ntwo") == "one | two"
