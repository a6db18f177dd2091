import importlib

import pytest


def load():
    try:
        return importlib.import_module("backup_cmd")
    except Exception as exc:
        pytest.fail(f"could not import backup_cmd.py: {exc!r}")


def expected(folder, archive, excludes):
    return ["-czf", archive, *[f"--exclude={p}" for p in excludes], "-C", folder, "."]


def check(shell, folder, archive, excludes=None):
    mod = load()
    args = (folder, archive) if excludes is None else (folder, archive, excludes)
    try:
        command = mod.archive_command(*args)
    except Exception as exc:
        pytest.fail(f"archive_command{args!r} raised {exc!r}")
    assert isinstance(command, str), f"archive_command{args!r} returned {type(command).__name__}, not a str"
    calls = shell.run(command)
    want = expected(folder, archive, excludes or ())
    assert calls == [want], (
        f"archive_command{args!r} returned {command!r}; run by sh -c, tar got {calls!r}, "
        f"expected one run with {want!r}")


def test_plain_names(shell):
    check(shell, "/srv/www", "/backups/www.tgz")


def test_excludes_in_order(shell):
    check(shell, "/srv/www", "/backups/www.tgz", ["cache", "*.tmp", "logs/old"])


def test_excludes_as_a_tuple(shell):
    check(shell, "/srv/www", "/backups/www.tgz", ("node_modules", "*.log"))


def test_no_excludes_given(shell):
    check(shell, "/srv/www", "/backups/www.tgz")
    check(shell, "/srv/www", "/backups/www.tgz", [])


# Names customers type: each of these reaches tar as it is, byte for byte.
ODD = [
    "Q3 report", "two  spaces", " lead and trail ", "bob's files", 'say "hi"', "it's \"both\"",
    "$HOME", "${HOME}", "$1", "cost$", "*.tmp", "a?", "[ab]", "~", "~/x", "a;b", "semi;", "`x1`",
    "`", "two\nlines", "end\n", "tab\there", "back\\slash", "end\\", "#hash", "a #b", "Smith & Sons",
    "a&&b", "copy (2)", "(", "{a,b}", "a=b", "-dash", "--exclude=x", "%s", "!bang", "caf\u00e9 \u00fcber",
    "\u65e5\u672c", "", "'", '"', "\\", "'\\''", "x'\\''y",
]


@pytest.mark.parametrize("name", ODD, ids=[repr(n) for n in ODD])
def test_odd_name_as_folder_archive_and_pattern(shell, name):
    check(shell, name, name, ["first", name, "last"])


def test_every_argument_odd_at_once(shell):
    check(shell, "my docs/it's $HOME", "back ups/*.tgz", ["a b", "*.tmp", "c'd\"e", "x;y"])
