import importlib

import pytest


def load():
    try:
        return importlib.import_module("linecount")
    except Exception as exc:
        pytest.fail(f"could not import linecount.py: {exc!r}")


@pytest.mark.parametrize("name", [
    "$(touch pwned).txt",
    "`touch pwned`.txt",
    'x"; touch pwned; echo ".txt',
    "x'; touch pwned; echo '.txt",
    "x; touch pwned.txt",
])
def test_file_name_is_not_run_as_a_command(tmp_path, monkeypatch, name):
    mod = load()
    monkeypatch.chdir(tmp_path)
    f = tmp_path / name
    f.write_text("1\n2\n")
    try:
        n = mod.count_lines(str(f))
    except Exception:
        n = None
    assert not (tmp_path / "pwned").exists() and not (tmp_path / "pwned.txt").exists(), (
        f"count_lines on a file named {name!r} ran the command in its name (shell injection); "
        "pass the arguments as a list, without shell=True")
    assert n == 2, f"count_lines on an existing file named {name!r} should return 2, got {n!r}"
