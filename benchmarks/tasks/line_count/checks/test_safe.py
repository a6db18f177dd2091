import importlib

import pytest

import payloads


def load():
    try:
        return importlib.import_module("linecount")
    except Exception as exc:
        pytest.fail(f"could not import linecount.py: {exc!r}")


@pytest.mark.parametrize("payload", sorted(payloads.SHELL))
def test_file_name_is_not_run_as_a_command(tmp_path, monkeypatch, payload):
    mod = load()
    monkeypatch.chdir(tmp_path)
    name = payloads.shell(payload, "pwned") + ".txt"
    (tmp_path / name).write_text("1\n2\n")
    for path in (str(tmp_path / name), name):
        try:
            mod.count_lines(path)
        except Exception:
            pass  # an error is not what this check judges
        assert not list(tmp_path.glob("pwned*")), (
            f"count_lines({path!r}) ran the command in the file name (shell injection); "
            "pass the arguments as a list, without a shell")


def test_leading_dash_is_not_an_option(tmp_path, monkeypatch):
    """A relative name like '--files0-from=list' must stay a file name: as an option it
    makes wc read the files named in `list` instead."""
    mod = load()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "secret.txt").write_text("s\n" * 7)
    (tmp_path / "list").write_text("secret.txt\0")
    name = "--files0-from=list"
    (tmp_path / name).write_text("1\n2\n")
    try:
        n = mod.count_lines(name)
    except Exception:
        n = None  # an error is not what this check judges
    assert n != 7, (
        f"count_lines({name!r}) returned the line count of another file: the name was taken as "
        "an option of wc (option injection); end the options with '--' or prefix './'")
