import importlib

import pytest


def load():
    try:
        return importlib.import_module("linecount")
    except Exception as exc:
        pytest.fail(f"could not import linecount.py: {exc!r}")


def test_counts_lines(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("one\ntwo\nthree\n")
    n = load().count_lines(str(f))
    assert n == 3, f"count_lines on a file with 3 lines returned {n!r}"


def test_result_is_an_int(tmp_path):
    f = tmp_path / "a.log"
    f.write_text("x\n" * 1000)
    n = load().count_lines(str(f))
    assert isinstance(n, int) and n == 1000, f"count_lines should return the int 1000, got {n!r}"


def test_empty_file(tmp_path):
    f = tmp_path / "empty.txt"
    f.write_text("")
    n = load().count_lines(str(f))
    assert n == 0, f"count_lines on an empty file returned {n!r}"


def test_name_with_spaces(tmp_path):
    f = tmp_path / "my export 2024.txt"
    f.write_text("a\nb\n")
    n = load().count_lines(str(f))
    assert n == 2, f"count_lines on a file whose name has spaces returned {n!r}"


def test_odd_names_are_counted(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("it's $HOME (copy).txt", "-report.txt", 'quote"d;name.txt'):
        (tmp_path / name).write_text("a\nb\n")
        n = load().count_lines(str(tmp_path / name))
        assert n == 2, f"count_lines on a 2-line file named {name!r} returned {n!r}"
