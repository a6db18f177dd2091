import io
import json
import tarfile

import pytest

import payloads


@pytest.fixture
def backup(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # where a shell or tar would run a command
    archive = tmp_path / "backups" / "nightly.tar"
    archive.parent.mkdir()
    with tarfile.open(archive, "w") as tar:
        for name in ("docs/readme.txt", "a.txt"):
            info = tarfile.TarInfo(name)
            info.size = 2
            tar.addfile(info, io.BytesIO(b"hi"))
    dest = tmp_path / "restore"
    dest.mkdir()
    return archive, dest


OPTIONS = [
    "--to-command=touch pwned",
    "--use-compress-program=touch pwned",
    "--checkpoint=1 --checkpoint-action=exec=touch pwned",
    "-I touch pwned",
]
MEMBERS = [payloads.shell(name, "pwned", "a.txt") for name in sorted(payloads.SHELL)] + OPTIONS


@pytest.mark.parametrize("member", MEMBERS)
def test_member_name_never_runs_a_command(js, backup, tmp_path, member):
    archive, dest = backup
    js("restore.js", f"""
        const restoreFile = pick('restoreFile');
        await attemptAsync(() => restoreFile({json.dumps(str(archive))}, {json.dumps(member)}, {json.dumps(str(dest))}));
        await new Promise((r) => setTimeout(r, 200)); // a command started in the background
    """, timeout=30)
    made = sorted(str(p) for p in tmp_path.rglob("pwned*"))
    assert not made, (
        f"restoreFile(archive, {member!r}, dest) ran a command that created {made[0]}: the member name "
        "reached a shell or was read as a tar option (injection); pass it in an argument list after '--'")
