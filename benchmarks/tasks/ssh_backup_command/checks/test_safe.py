import importlib

import pytest

import payloads


def load():
    try:
        return importlib.import_module("backup_cmd")
    except Exception as exc:
        pytest.fail(f"could not import backup_cmd.py: {exc!r}")


@pytest.mark.parametrize("payload", sorted(payloads.SHELL))
def test_input_is_never_run_as_a_command(shell, payload):
    mod = load()
    # the same payload in every argument, each making its own marker file
    folder = payloads.shell(payload, "pwned_by_folder", word="data")
    archive = payloads.shell(payload, "pwned_by_archive", word="out.tgz")
    excludes = ["cache", payloads.shell(payload, "pwned_by_exclude", word="logs")]
    try:
        command = mod.archive_command(folder, archive, excludes)
    except Exception:
        return  # refusing is not what this check judges
    if not isinstance(command, str):
        return
    shell.run(command)
    made = sorted(p.name for p in shell.cwd.glob("pwned*"))
    assert not made, (
        f"archive_command({folder!r}, {archive!r}, {excludes!r}) ran a command on the backup host: "
        f"sh -c {command!r} created {made} (shell injection); quote every argument for sh, e.g. with "
        "shlex.quote")
